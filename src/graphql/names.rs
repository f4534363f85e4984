//! The reference's naming rules for the domain schema (ibexa/graphql 4.6 `NameHelper`,
//! `BaseNameHelper`, `Pluralizer`, `NameValidator`): what a content type, a group and a Field
//! definition are called in GraphQL.

/// `blog_post` → `BlogPost`, as Symfony's `CamelCaseToSnakeCaseNameConverter::denormalize`
/// (upper first) reads an identifier: `/(^|_|\.)+(.)/` → the character upper-cased, after `_`
/// when the last separator was a dot.
pub fn camel(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let sep = |c: char| c == '_' || c == '.';
    let mut out = String::with_capacity(s.len());
    let Some(first) = chars.first() else {
        return out;
    };
    out.extend(first.to_uppercase());
    let mut i = 1;
    while i < chars.len() {
        if !sep(chars[i]) {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && sep(chars[i]) {
            i += 1;
        }
        let run = &chars[start..i];
        if i < chars.len() {
            // The whole run, then the character after it.
            if run[run.len() - 1] == '.' {
                out.push('_');
            }
            out.extend(chars[i].to_uppercase());
            i += 1;
        } else if run.len() >= 2 {
            // At the end: the last separator is the character taken.
            if run[run.len() - 2] == '.' {
                out.push('_');
            }
            out.push(run[run.len() - 1]);
        } else {
            out.push(run[0]);
        }
    }
    out
}

/// The first character lower-cased (PHP's `lcfirst`).
pub fn lcfirst(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The reference's plural of a field name (`Pluralizer::pluralize`, its rules in its order).
pub fn pluralize(name: &str) -> String {
    let ends = |suffix: &str| name.ends_with(suffix);
    let cut = |n: usize| &name[..name.len() - n];
    if ends("f") {
        return format!("{}ves", cut(1));
    }
    if ends("y") {
        let before = name.chars().rev().nth(1);
        return match before {
            Some('a' | 'e' | 'i' | 'o' | 'u') => format!("{name}s"),
            _ => format!("{}ies", cut(1)),
        };
    }
    if ends("is") {
        return format!("{}es", cut(2));
    }
    if ends("us") {
        return format!("{}i", cut(2));
    }
    if ends("on") || ends("um") {
        return format!("{}a", cut(2));
    }
    if ["s", "sh", "ch", "x", "z", "o"].iter().any(|s| ends(s)) {
        return format!("{name}es");
    }
    format!("{name}s")
}

/// A name GraphQL accepts (`/^[_a-zA-Z][_a-zA-Z0-9]*$/`); the reference skips the others with a
/// warning.
pub fn valid(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// `<Camel>Item`: the object type of a content type's items.
pub fn item(identifier: &str) -> String {
    format!("{}Item", camel(identifier))
}

/// `<Camel>ItemType`: the object type of a content type's Field definitions.
pub fn item_type(identifier: &str) -> String {
    format!("{}ItemType", camel(identifier))
}

/// `<Camel>ItemConnection`.
pub fn item_connection(identifier: &str) -> String {
    format!("{}ItemConnection", camel(identifier))
}

/// `lc(Camel)`: the group's field of one item, and the field of an `ItemGroup<X>Types`.
pub fn item_field(identifier: &str) -> String {
    lcfirst(&camel(identifier))
}

/// `pluralize(lc(Camel))`: the group's field of a connection of items.
pub fn items_field(identifier: &str) -> String {
    pluralize(&item_field(identifier))
}

/// A group's identifier with what a name cannot hold made `_`.
fn sanitized(group: &str) -> String {
    group
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `ItemGroup<Camel>`.
pub fn group(identifier: &str) -> String {
    format!("ItemGroup{}", camel(&sanitized(identifier)))
}

/// `ItemGroup<Camel>Types`.
pub fn group_types(identifier: &str) -> String {
    format!("ItemGroup{}Types", camel(&sanitized(identifier)))
}

/// `lc(Camel)` of a group: its field on `Domain`.
pub fn group_field(identifier: &str) -> String {
    lcfirst(&camel(&sanitized(identifier)))
}

/// `lc(Camel)` of a Field definition, `id` made `id_` (the reference's override, EZP-32261).
pub fn field(identifier: &str) -> String {
    match lcfirst(&camel(identifier)) {
        name if name == "id" => "id_".to_string(),
        name => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_the_reference_makes_them() {
        assert_eq!(item("blog_post"), "BlogPostItem");
        assert_eq!(items_field("blog_post"), "blogPosts");
        assert_eq!(items_field("news"), "newses");
        assert_eq!(items_field("category"), "categories");
        assert_eq!(items_field("person"), "persa");
        assert_eq!(items_field("analysis"), "analyses");
        assert_eq!(items_field("button"), "butta");
        assert_eq!(items_field("day"), "days");
        assert_eq!(items_field("shelf"), "shelves");
        assert_eq!(items_field("box"), "boxes");
        assert_eq!(items_field("radius"), "radii");
        assert_eq!(items_field("landing_page"), "landingPages");
        assert_eq!(item_field("user_group"), "userGroup");
        assert_eq!(group("Content"), "ItemGroupContent");
        assert_eq!(group_field("Customer Portal"), "customerPortal");
        assert_eq!(group("Customer Portal"), "ItemGroupCustomerPortal");
        assert_eq!(field("id"), "id_");
        assert_eq!(field("short_title"), "shortTitle");
        assert_eq!(camel("a.b"), "A_B");
        assert_eq!(camel("a__b"), "AB");
        assert_eq!(camel("a_"), "A_");
        assert!(!valid(&item("blog-post")));
        assert!(valid(&item("blog_post")));
    }
}
