//! Name schemas: `<short_name|name>`, `<first_name> <last_name>`, `(<a> - <b>)`.
//!
//! A token `<a|b>` is the first of its fields with text; text outside tokens is kept; a group
//! in parentheses is kept only when one of its tokens has text. Names are cut to 150
//! characters, like the reference's default limit.

const LIMIT: usize = 150;

/// The name `schema` gives, with `text_of(identifier)` the text of a field.
pub fn resolve(schema: &str, text_of: &dyn Fn(&str) -> String) -> String {
    let name = render(schema, text_of).0;
    let name = name.trim().to_string();
    if name.chars().count() > LIMIT {
        let cut: String = name.chars().take(LIMIT - 3).collect();
        format!("{}...", cut.trim_end())
    } else {
        name
    }
}

/// Renders `s`; the flag says whether any token had text.
fn render(s: &str, text_of: &dyn Fn(&str) -> String) -> (String, bool) {
    let mut out = String::new();
    let mut any = false;
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '<' => match chars[i..].iter().position(|&c| c == '>') {
                Some(end) => {
                    let token: String = chars[i + 1..i + end].iter().collect();
                    let text = token
                        .split('|')
                        .map(|id| text_of(id.trim()))
                        .find(|t| !t.is_empty())
                        .unwrap_or_default();
                    any |= !text.is_empty();
                    out.push_str(&text);
                    i += end + 1;
                }
                None => {
                    out.push('<');
                    i += 1;
                }
            },
            '(' => {
                // The matching parenthesis, nesting allowed.
                let mut depth = 0;
                let mut end = None;
                for (j, &c) in chars[i..].iter().enumerate() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(i + j);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                match end {
                    Some(end) => {
                        let inner: String = chars[i + 1..end].iter().collect();
                        let (text, had) = render(&inner, text_of);
                        if had {
                            out.push_str(&text);
                            any = true;
                        }
                        i = end + 1;
                    }
                    None => {
                        out.push('(');
                        i += 1;
                    }
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    (out, any)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(id: &str) -> String {
        match id {
            "name" => "Folder".into(),
            "first_name" => "Ada".into(),
            "last_name" => "Lovelace".into(),
            _ => String::new(),
        }
    }

    #[test]
    fn schemas_resolve_like_the_reference() {
        assert_eq!(resolve("<short_name|name>", &fields), "Folder");
        assert_eq!(resolve("<first_name> <last_name>", &fields), "Ada Lovelace");
        assert_eq!(resolve("<name>( - <short_name>)", &fields), "Folder");
        assert_eq!(resolve("<name>( - <first_name>)", &fields), "Folder - Ada");
        assert_eq!(resolve("<nothing>", &fields), "");
        let long = "x".repeat(200);
        assert_eq!(resolve(&long, &fields).chars().count(), 150);
    }
}
