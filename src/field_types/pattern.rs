//! A small regular expression matcher for `UsernamePattern` (ezuser): literals, `.`,
//! classes (`[a-z_]`, `[^@]`, `\d`, `\w`, `\s` and their negations), anchors `^` `$`, groups
//! `( )` / `(?: )` with `|`, and greedy `*` `+` `?` `{n}` `{n,}` `{n,m}`, searched anywhere in
//! the text like PHP's `preg_match`. Other syntax is refused (`None`).

#[derive(Debug, Clone)]
enum Atom {
    Char(char),
    Any,
    Class(Vec<ClassItem>, bool),
    Start,
    End,
    Group(Vec<Vec<Piece>>),
}

#[derive(Debug, Clone)]
enum ClassItem {
    Range(char, char),
    Digit(bool),
    Word(bool),
    Space(bool),
}

#[derive(Debug, Clone)]
struct Piece {
    atom: Atom,
    min: usize,
    max: usize,
}

/// Whether `pattern` matches somewhere in `text`; `None` when the pattern is not supported.
pub(crate) fn is_match(pattern: &str, text: &str) -> Option<bool> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut pos = 0;
    let alts = alternatives(&chars, &mut pos)?;
    if pos != chars.len() {
        return None;
    }
    let t: Vec<char> = text.chars().collect();
    Some((0..=t.len()).any(|start| match_alts(&alts, &t, start, &mut |_| true)))
}

fn alternatives(p: &[char], pos: &mut usize) -> Option<Vec<Vec<Piece>>> {
    let mut alts = vec![Vec::new()];
    while *pos < p.len() {
        match p[*pos] {
            ')' => break,
            '|' => {
                *pos += 1;
                alts.push(Vec::new());
            }
            _ => {
                let piece = piece(p, pos)?;
                alts.last_mut()?.push(piece);
            }
        }
    }
    Some(alts)
}

fn piece(p: &[char], pos: &mut usize) -> Option<Piece> {
    let c = p[*pos];
    *pos += 1;
    let atom = match c {
        '.' => Atom::Any,
        '^' => Atom::Start,
        '$' => Atom::End,
        '(' => {
            if p.get(*pos) == Some(&'?') {
                if p.get(*pos + 1) != Some(&':') {
                    return None;
                }
                *pos += 2;
            }
            let alts = alternatives(p, pos)?;
            if p.get(*pos) != Some(&')') {
                return None;
            }
            *pos += 1;
            Atom::Group(alts)
        }
        '[' => class(p, pos)?,
        '\\' => {
            let e = *p.get(*pos)?;
            *pos += 1;
            match escape_class(e) {
                Some(item) => Atom::Class(vec![item], false),
                None if e.is_ascii_alphanumeric() => return None,
                None => Atom::Char(e),
            }
        }
        '*' | '+' | '?' | '{' | ')' | '|' => return None,
        c => Atom::Char(c),
    };
    let (min, max) = match p.get(*pos) {
        Some('*') => (0, usize::MAX),
        Some('+') => (1, usize::MAX),
        Some('?') => (0, 1),
        Some('{') => {
            let close = p[*pos..].iter().position(|&c| c == '}')? + *pos;
            let inner: String = p[*pos + 1..close].iter().collect();
            let (a, b) = match inner.split_once(',') {
                Some((a, "")) => (a.parse().ok()?, usize::MAX),
                Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
                None => {
                    let n = inner.parse().ok()?;
                    (n, n)
                }
            };
            *pos = close;
            (a, b)
        }
        _ => (1, 1),
    };
    if (min, max) != (1, 1) {
        *pos += 1;
        if matches!(p.get(*pos), Some('?' | '+')) {
            return None;
        }
    }
    Some(Piece { atom, min, max })
}

fn escape_class(e: char) -> Option<ClassItem> {
    Some(match e {
        'd' => ClassItem::Digit(true),
        'D' => ClassItem::Digit(false),
        'w' => ClassItem::Word(true),
        'W' => ClassItem::Word(false),
        's' => ClassItem::Space(true),
        'S' => ClassItem::Space(false),
        _ => return None,
    })
}

fn class(p: &[char], pos: &mut usize) -> Option<Atom> {
    let negated = p.get(*pos) == Some(&'^');
    if negated {
        *pos += 1;
    }
    let mut items = Vec::new();
    let mut first = true;
    loop {
        let c = *p.get(*pos)?;
        *pos += 1;
        if c == ']' && !first {
            break;
        }
        first = false;
        let lo = if c == '\\' {
            let e = *p.get(*pos)?;
            *pos += 1;
            if let Some(item) = escape_class(e) {
                items.push(item);
                continue;
            }
            e
        } else {
            c
        };
        if p.get(*pos) == Some(&'-') && p.get(*pos + 1).is_some_and(|&c| c != ']') {
            let mut hi = p[*pos + 1];
            *pos += 2;
            if hi == '\\' {
                hi = *p.get(*pos)?;
                *pos += 1;
            }
            items.push(ClassItem::Range(lo, hi));
        } else {
            items.push(ClassItem::Range(lo, lo));
        }
    }
    Some(Atom::Class(items, negated))
}

fn class_has(items: &[ClassItem], c: char) -> bool {
    items.iter().any(|i| match *i {
        ClassItem::Range(a, b) => a <= c && c <= b,
        ClassItem::Digit(yes) => c.is_ascii_digit() == yes,
        ClassItem::Word(yes) => (c.is_alphanumeric() || c == '_') == yes,
        ClassItem::Space(yes) => c.is_whitespace() == yes,
    })
}

/// Matches one of `alts` at `i`, then the continuation `k`.
fn match_alts(alts: &[Vec<Piece>], t: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    alts.iter().any(|seq| match_seq(seq, t, i, k))
}

fn match_seq(seq: &[Piece], t: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    let Some((first, rest)) = seq.split_first() else {
        return k(i);
    };
    match_repeat(first, 0, t, i, &mut |j| match_seq(rest, t, j, k))
}

/// Greedy repetition of `piece` (already matched `count` times) at `i`.
fn match_repeat(
    piece: &Piece,
    count: usize,
    t: &[char],
    i: usize,
    k: &mut dyn FnMut(usize) -> bool,
) -> bool {
    if count < piece.max {
        let more = match_atom(&piece.atom, t, i, &mut |j| {
            // Past the minimum an empty match cannot repeat (no endless loop on `(a*)*`).
            (j != i || count < piece.min) && match_repeat(piece, count + 1, t, j, k)
        });
        if more {
            return true;
        }
    }
    count >= piece.min && k(i)
}

fn match_atom(atom: &Atom, t: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    match atom {
        Atom::Char(c) => t.get(i) == Some(c) && k(i + 1),
        Atom::Any => t.get(i).is_some_and(|&c| c != '\n') && k(i + 1),
        Atom::Class(items, negated) => {
            t.get(i).is_some_and(|&c| class_has(items, c) != *negated) && k(i + 1)
        }
        Atom::Start => i == 0 && k(i),
        Atom::End => (i == t.len() || (i + 1 == t.len() && t[i] == '\n')) && k(i),
        Atom::Group(alts) => match_alts(alts, t, i, k),
    }
}

#[cfg(test)]
mod tests {
    use super::is_match;

    #[test]
    fn patterns() {
        assert_eq!(is_match("^[^@]+$", "admin"), Some(true));
        assert_eq!(is_match("^[^@]+$", "a@b"), Some(false));
        assert_eq!(is_match("^[^@]+$", ""), Some(false));
        assert_eq!(is_match("^[a-z0-9_.-]{3,8}$", "jo.doe"), Some(true));
        assert_eq!(is_match("^[a-z0-9_.-]{3,8}$", "jo"), Some(false));
        assert_eq!(is_match("^(ab|cd)+x?$", "abcdab"), Some(true));
        assert_eq!(is_match("\\d", "abc1"), Some(true));
        assert_eq!(is_match("^\\w+$", "a b"), Some(false));
        assert_eq!(is_match("(?<name>x)", "x"), None);
        assert_eq!(is_match("^(a*)*$", "aaab"), Some(false));
    }
}
