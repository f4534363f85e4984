//! The URL slug converter: the reference's `SlugConverter` with its default `urlalias`
//! transformation and the `url_cleanup` method, word separator dash (formats.md 11).
//!
//! Each character is first transliterated to ASCII from hand-written tables that follow the
//! reference's `.tr` tables for what they cover:
//!
//! - Latin-1 supplement: the German and Scandinavian letters are spelt out (`ä` → `ae`,
//!   `Ö` → `Oe`, `ü` → `ue`, `å` → `aa`, `ø` → `oe`, `æ` → `ae`, `ß` → `ss`, `þ` → `th`),
//!   every other letter loses its diacritic (`é` → `e`, `ñ` → `n`, `Ç` → `C`); `×` → `*`,
//!   `÷` → `/`, `¡` → `!`, `¿` → `?`, `ª` → `a`, `º` → `o`;
//! - Latin Extended-A (U+0100-U+017F) and `Ș ș Ț ț`: the base letter (`ł` → `l`, `č` → `c`,
//!   `ő` → `o`), with `Ĳ` → `IJ`, `ŉ` → `'n`, `Œ` → `AE` and `œ` → `ae` (as the reference),
//!   `ſ` → `s`; the ligatures `ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ`;
//! - Cyrillic (Russian, Ukrainian, Belarusian, Serbian, Macedonian letters, U+0400-U+045F and
//!   `Ґ ґ`): the reference's transliteration (`Ж` → `ZH`, `щ` → `sch`, `я` → `ya`, `ъ`/`ь` →
//!   `'`, which the cleanup turns into a separator);
//! - Greek (U+0386-U+03CE): the reference's transliteration (`θ` → `th`, `ψ` → `ps`, accented
//!   vowels with an `h`: `ά` → `ha`).
//!
//! Anything else (Hebrew, CJK, symbols, punctuation) is left to the cleanup, which turns every
//! run of characters outside `[A-Za-z0-9_!.-]` into one `-`. Case is kept.

/// Root-level names the system uses: a generated alias with one of these names starts its
/// counter at 2 (`Content2`).
pub const RESERVED: &[&str] = &[
    "class",
    "collaboration",
    "content",
    "error",
    "ezinfo",
    "infocollector",
    "layout",
    "notification",
    "oauth",
    "oauthadmin",
    "package",
    "pdf",
    "role",
    "rss",
    "search",
    "section",
    "settings",
    "setup",
    "shop",
    "state",
    "trigger",
    "url",
    "user",
    "visual",
    "workflow",
    "switchlanguage",
];

/// The longest slug, in characters.
pub const LIMIT: usize = 255;

/// `text` as a URL path element; `default` stands in for an empty `text` (the reference
/// gives `_1` for an empty name). A text that cleans up to nothing gives an empty slug.
pub fn convert(text: &str, default: &str) -> String {
    let text = if text.is_empty() { default } else { text };
    let mut ascii = String::with_capacity(text.len());
    for c in text.chars() {
        transliterate(c, &mut ascii);
    }
    let mut slug = cleanup(&ascii);
    if slug.len() > LIMIT {
        slug.truncate(LIMIT);
        slug = slug.trim_end_matches('-').to_string();
    }
    slug
}

/// The first counter to try for `slug` at a level: 2 for a reserved name at the root
/// (compared case-insensitively), else 1 (no suffix).
pub fn first_counter(slug: &str, root_level: bool) -> u32 {
    if root_level && RESERVED.iter().any(|r| r.eq_ignore_ascii_case(slug)) {
        2
    } else {
        1
    }
}

/// The text of a generated element: the slug, with the counter appended when it is above 1
/// (or when the slug is empty).
pub fn with_counter(slug: &str, counter: u32) -> String {
    if slug.is_empty() || counter > 1 {
        format!("{slug}{counter}")
    } else {
        slug.to_string()
    }
}

fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '!' | '.' | '-')
}

/// The reference's `url_cleanup`, in its order: runs of characters outside
/// `[A-Za-z0-9_!.-]` become `-`; leading dots and trailing dots or `!` become `-`; runs of
/// dots become `-`; runs of `-` become one; `-` is trimmed from both ends.
pub fn cleanup(text: &str) -> String {
    // 1. Runs of other characters → one separator.
    let mut s = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        if allowed(c) {
            s.push(c);
            in_run = false;
        } else if !in_run {
            s.push('-');
            in_run = true;
        }
    }
    // 2. Leading dots, trailing dots and exclamation marks → separator.
    let lead = s.len() - s.trim_start_matches('.').len();
    if lead > 0 {
        s = format!("-{}", &s[lead..]);
    }
    let body = s.trim_end_matches(['.', '!']);
    if body.len() < s.len() && !body.is_empty() {
        s = format!("{body}-");
    } else if body.is_empty() && !s.is_empty() {
        s = "-".into();
    }
    // 3. Runs of two or more dots → separator.
    let mut t = String::with_capacity(s.len());
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '.' {
            let mut j = i;
            while j < chars.len() && chars[j] == '.' {
                j += 1;
            }
            if j - i >= 2 {
                t.push('-');
            } else {
                t.push('.');
            }
            i = j;
        } else {
            t.push(chars[i]);
            i += 1;
        }
    }
    // 4. Runs of separators → one; 5. trim.
    let mut u = String::with_capacity(t.len());
    for c in t.chars() {
        if c == '-' && u.ends_with('-') {
            continue;
        }
        u.push(c);
    }
    u.trim_matches('-').to_string()
}

/// Appends the ASCII transliteration of `c` (or `c` itself when no table covers it).
fn transliterate(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c);
        return;
    }
    let s: &str = match c {
        // Spaces, hyphens, quotes: normalised (the cleanup makes them separators anyway).
        '\u{00A0}' | '\u{2000}'..='\u{200B}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => " ",
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{00AD}' => "-",
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{00B4}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}'
        | '\u{00BB}' => "\"",
        '¡' => "!",
        '¿' => "?",
        '×' => "*",
        '÷' => "/",
        'ª' => "a",
        'º' => "o",
        // Latin-1: spelt out.
        'Ä' => "Ae",
        'Ö' => "Oe",
        'Ü' => "Ue",
        'ä' => "ae",
        'ö' => "oe",
        'ü' => "ue",
        'Å' => "AA",
        'å' => "aa",
        'Æ' => "AE",
        'æ' => "ae",
        'Ø' => "OE",
        'ø' => "oe",
        'ß' => "ss",
        'Þ' => "TH",
        'þ' => "th",
        // Latin-1: diacritics stripped.
        'À' | 'Á' | 'Â' | 'Ã' => "A",
        'à' | 'á' | 'â' | 'ã' => "a",
        'Ç' => "C",
        'ç' => "c",
        'È' | 'É' | 'Ê' | 'Ë' => "E",
        'è' | 'é' | 'ê' | 'ë' => "e",
        'Ì' | 'Í' | 'Î' | 'Ï' => "I",
        'ì' | 'í' | 'î' | 'ï' => "i",
        'Ð' => "D",
        'ð' => "d",
        'Ñ' => "N",
        'ñ' => "n",
        'Ò' | 'Ó' | 'Ô' | 'Õ' => "O",
        'ò' | 'ó' | 'ô' | 'õ' => "o",
        'Ù' | 'Ú' | 'Û' => "U",
        'ù' | 'ú' | 'û' => "u",
        'Ý' => "Y",
        'ý' | 'ÿ' => "y",
        // Latin Extended-A.
        'Ā' | 'Ă' | 'Ą' => "A",
        'ā' | 'ă' | 'ą' => "a",
        'Ć' | 'Ĉ' | 'Ċ' | 'Č' => "C",
        'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'Ď' | 'Đ' => "D",
        'ď' | 'đ' => "d",
        'Ē' | 'Ĕ' | 'Ė' | 'Ę' | 'Ě' => "E",
        'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'Ĝ' | 'Ğ' | 'Ġ' | 'Ģ' => "G",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'Ĥ' | 'Ħ' => "H",
        'ĥ' | 'ħ' => "h",
        'Ĩ' | 'Ī' | 'Ĭ' | 'Į' | 'İ' => "I",
        'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'Ĳ' => "IJ",
        'ĳ' => "ij",
        'Ĵ' => "J",
        'ĵ' => "j",
        'Ķ' => "K",
        'ķ' | 'ĸ' => "k",
        'Ĺ' | 'Ļ' | 'Ľ' | 'Ŀ' | 'Ł' => "L",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'Ń' | 'Ņ' | 'Ň' | 'Ŋ' => "N",
        'ń' | 'ņ' | 'ň' | 'ŋ' => "n",
        'ŉ' => "'n",
        'Ō' | 'Ŏ' | 'Ő' => "O",
        'ō' | 'ŏ' | 'ő' => "o",
        'Œ' => "AE",
        'œ' => "ae",
        'Ŕ' | 'Ŗ' | 'Ř' => "R",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'Ś' | 'Ŝ' | 'Ş' | 'Š' | 'Ș' => "S",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ș' | 'ſ' => "s",
        'Ţ' | 'Ť' | 'Ŧ' | 'Ț' => "T",
        'ţ' | 'ť' | 'ŧ' | 'ț' => "t",
        'Ũ' | 'Ū' | 'Ŭ' | 'Ů' | 'Ű' | 'Ų' => "U",
        'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'Ŵ' => "W",
        'ŵ' => "w",
        'Ŷ' | 'Ÿ' => "Y",
        'ŷ' => "y",
        'Ź' | 'Ż' | 'Ž' => "Z",
        'ź' | 'ż' | 'ž' => "z",
        'ﬀ' => "ff",
        'ﬁ' => "fi",
        'ﬂ' => "fl",
        'ﬃ' => "ffi",
        'ﬄ' => "ffl",
        'ﬅ' | 'ﬆ' => "st",
        // Cyrillic.
        'Ѐ' | 'Є' => "IE",
        'Ё' => "IO",
        'Ђ' => "D",
        'Ѓ' | 'Ґ' => "G",
        'Ѕ' => "DS",
        'І' => "II",
        'Ї' => "YI",
        'Ј' => "J",
        'Љ' => "LJ",
        'Њ' => "NJ",
        'Ћ' => "Ts",
        'Ќ' => "KJ",
        'Ѝ' => "I",
        'Ў' => "V",
        'Џ' => "DZ",
        'А' => "A",
        'Б' => "B",
        'В' => "V",
        'Г' => "G",
        'Д' => "D",
        'Е' => "E",
        'Ж' => "ZH",
        'З' => "Z",
        'И' => "I",
        'Й' => "J",
        'К' => "K",
        'Л' => "L",
        'М' => "M",
        'Н' => "N",
        'О' => "O",
        'П' => "P",
        'Р' => "R",
        'С' => "S",
        'Т' => "T",
        'У' => "U",
        'Ф' => "F",
        'Х' => "H",
        'Ц' => "C",
        'Ч' => "CH",
        'Ш' => "SH",
        'Щ' => "SCH",
        'Ъ' | 'Ь' | 'ъ' | 'ь' => "'",
        'Ы' => "Y",
        'Э' => "E",
        'Ю' => "YU",
        'Я' => "YA",
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' | 'ѓ' | 'ґ' => "g",
        'д' | 'ђ' => "d",
        'е' => "e",
        'ж' => "zh",
        'з' => "z",
        'и' | 'ѝ' => "i",
        'й' | 'ј' => "j",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' => "u",
        'ф' => "f",
        'х' => "h",
        'ц' => "c",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "sch",
        'ы' => "y",
        'э' => "e",
        'ю' => "yu",
        'я' => "ya",
        'ѐ' | 'є' => "ie",
        'ё' => "io",
        'ѕ' => "ds",
        'і' => "ii",
        'ї' => "yi",
        'љ' => "lj",
        'њ' => "nj",
        'ћ' => "ts",
        'ќ' => "kj",
        'ў' => "v",
        'џ' => "dz",
        // Greek.
        'Ά' => "Ha",
        'Έ' | 'Ή' => "He",
        'Ί' => "Hi",
        'Ό' | 'Ώ' => "Ho",
        'Ύ' => "Hu",
        'ΐ' | 'Ι' | 'Ϊ' => "I",
        'Α' => "A",
        'Β' => "V",
        'Γ' => "G",
        'Δ' => "D",
        'Ε' | 'Η' => "E",
        'Ζ' => "Z",
        'Θ' => "Th",
        'Κ' => "K",
        'Λ' => "L",
        'Μ' => "M",
        'Ν' => "N",
        'Ξ' => "X",
        'Ο' | 'Ω' => "O",
        'Π' => "P",
        'Ρ' => "R",
        'Σ' => "S",
        'Τ' => "T",
        'Υ' | 'Ϋ' => "Y",
        'Φ' => "Ph",
        'Χ' => "Ch",
        'Ψ' => "Ps",
        'ά' => "ha",
        'έ' | 'ή' => "he",
        'ί' => "hi",
        'ό' | 'ώ' => "ho",
        'ύ' => "hu",
        'ΰ' | 'υ' | 'ϋ' => "y",
        'α' => "a",
        'β' => "v",
        'γ' => "g",
        'δ' => "d",
        'ε' | 'η' => "e",
        'ζ' => "z",
        'θ' => "th",
        'ι' | 'ϊ' => "i",
        'κ' => "k",
        'λ' => "l",
        'μ' => "m",
        'ν' => "n",
        'ξ' => "x",
        'ο' | 'ω' => "o",
        'π' => "p",
        'ρ' => "r",
        'ς' | 'σ' => "s",
        'τ' => "t",
        'φ' => "ph",
        'χ' => "ch",
        'ψ' => "ps",
        _ => {
            out.push(c);
            return;
        }
    };
    out.push_str(s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_slugs_with_case_kept() {
        assert_eq!(convert("Administrator users", "_1"), "Administrator-users");
        assert_eq!(convert("Anonymous Users", "_1"), "Anonymous-Users");
        assert_eq!(convert("  Hello,   World  ", "_1"), "Hello-World");
        assert_eq!(convert("a_b-c.d!e", "_1"), "a_b-c.d!e");
        assert_eq!(convert("This & that", "_1"), "This-that");
        assert_eq!(convert("What is this?", "_1"), "What-is-this");
        assert_eq!(convert("myfile.tpl", "_1"), "myfile.tpl");
    }

    #[test]
    fn cleanup_follows_the_reference_example() {
        // The reference's own test of `url_cleanup`.
        let text = ".Ph'nglui mglw'nafh, Cthulhu R'lyeh wgah'nagl fhtagn!?...";
        assert_eq!(
            convert(text, "_1"),
            "Ph-nglui-mglw-nafh-Cthulhu-R-lyeh-wgah-nagl-fhtagn!"
        );
        assert_eq!(cleanup("..a..b.."), "a-b");
        assert_eq!(cleanup("Yes!!"), "Yes");
        assert_eq!(cleanup("..."), "");
        assert_eq!(cleanup("--a---b--"), "a-b");
    }

    #[test]
    fn latin_letters_are_transliterated() {
        assert_eq!(convert("øæå", "_1"), "oeaeaa");
        assert_eq!(convert("Über München", "_1"), "Ueber-Muenchen");
        assert_eq!(convert("Straße", "_1"), "Strasse");
        assert_eq!(convert("Crème brûlée", "_1"), "Creme-brulee");
        assert_eq!(convert("Łódź", "_1"), "Lodz");
        assert_eq!(convert("Čeština Ŕ ő", "_1"), "Cestina-R-o");
        assert_eq!(convert("Şişli Țară", "_1"), "Sisli-Tara");
        assert_eq!(convert("Œuvre", "_1"), "AEuvre");
        // Only leading dots go: a leading `!` stays, as in the reference.
        assert_eq!(convert("¡Hola!", "_1"), "!Hola");
    }

    #[test]
    fn cyrillic_and_greek_are_transliterated() {
        assert_eq!(convert("Москва", "_1"), "Moskva");
        assert_eq!(convert("Жизнь щука", "_1"), "ZHizn-schuka");
        assert_eq!(convert("Київ", "_1"), "Kiyiv");
        assert_eq!(convert("Αθήνα", "_1"), "Athhena");
        assert_eq!(convert("Ψυχή", "_1"), "Psychhe");
    }

    #[test]
    fn uncovered_scripts_become_separators() {
        assert_eq!(convert("日本 Japan", "_1"), "Japan");
        assert_eq!(convert("日本", "_1"), "");
    }

    #[test]
    fn empty_names_and_limits() {
        assert_eq!(convert("", "_1"), "_1");
        assert_eq!(convert("", "noname2"), "noname2");
        let long = "word ".repeat(100);
        let slug = convert(&long, "_1");
        assert!(slug.len() <= LIMIT);
        assert!(!slug.ends_with('-'));
        assert_eq!(convert(&"x".repeat(300), "_1").len(), LIMIT);
    }

    #[test]
    fn counters() {
        assert_eq!(first_counter("Content", true), 2);
        assert_eq!(first_counter("USER", true), 2);
        assert_eq!(first_counter("Content", false), 1);
        assert_eq!(first_counter("Folder", true), 1);
        assert_eq!(with_counter("Folder", 1), "Folder");
        assert_eq!(with_counter("Folder", 2), "Folder2");
        assert_eq!(with_counter("", 1), "1");
    }
}
