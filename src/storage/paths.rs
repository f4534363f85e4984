//! The names of stored files: content-addressed, `ab/cd/<sha256 hex>/<file name>`, so that
//! every instance over the same backend agrees on them and a path never changes content.

use sha2::{Digest, Sha256};

/// The relative path of `data` named `file_name`: `ab/cd/<sha256 hex>/<sanitized name>`.
pub fn content_path(data: &[u8], file_name: &str) -> String {
    hashed_path(&hex(&Sha256::digest(data)), file_name)
}

pub(crate) fn hashed_path(hash: &str, file_name: &str) -> String {
    format!(
        "{}/{}/{hash}/{}",
        &hash[0..2],
        &hash[2..4],
        sanitize_file_name(file_name)
    )
}

/// Where a file derived from the stored `original` (`ab/cd/<hash>/<name>`) is kept, such as an
/// image variation: `_aliases/<kind>/<digest>/ab/cd/<hash>/<stem>.<extension>`, `digest`
/// naming how it was derived.
pub fn derived_path(original: &str, kind: &str, digest: &str, extension: &str) -> String {
    let (dir, name) = original.rsplit_once('/').unwrap_or(("", original));
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let dir = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    format!("_aliases/{kind}/{digest}/{dir}{stem}.{extension}")
}

/// The content hash of the original a derived path comes from, and the digest of how.
pub(crate) fn derived_from(path: &str) -> Option<(&str, &str)> {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        ["_aliases", _, digest, _, _, hash, _] => Some((hash, digest)),
        _ => None,
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A file name safe in a path and a URI: the last path segment, characters other than
/// letters, digits, `.`, `-` and `_` replaced by `_`, no leading dots, at most 200 bytes;
/// `file` when nothing is left.
pub fn sanitize_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("");
    let mut out: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    out = out.trim_start_matches('.').to_string();
    out.truncate(200);
    if out.is_empty() {
        "file".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sanitized() {
        assert_eq!(sanitize_file_name("../../etc/pass wd.txt"), "pass_wd.txt");
        assert_eq!(sanitize_file_name("C:\\x\\été.png"), "_t_.png");
        assert_eq!(sanitize_file_name("..."), "file");
        assert_eq!(sanitize_file_name(""), "file");
    }

    #[test]
    fn derived_paths_name_their_original() {
        let hash = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
        let p = derived_path(&format!("2c/f2/{hash}/a.png"), "small", "0123", "webp");
        assert_eq!(p, format!("_aliases/small/0123/2c/f2/{hash}/a.webp"));
        assert_eq!(derived_from(&p), Some((hash, "0123")));
        assert_eq!(derived_from(&format!("2c/f2/{hash}/a.png")), None);
    }

    #[test]
    fn paths_are_content_addressed() {
        let p = content_path(b"hello", "a b.txt");
        assert_eq!(
            p,
            "2c/f2/2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824/a_b.txt"
        );
    }
}
