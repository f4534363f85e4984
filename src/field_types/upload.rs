//! The file of a binary field value (ezimage, ezbinaryfile, ezmedia): read from its
//! `fieldValue` (base64 `data` is stored through the `FileStore`; `inputUri`, `id` or `path`
//! must name a file the store already holds: a value sent back unchanged), and the checks of
//! the stored value's file (name, size) every binary type makes.

use super::{Definition, STORE_FAILED, ValueContext, ValueError, field, opt_text, sniff};
use crate::storage::PutError;
use cairn_runtime::HashValue;

/// A file stored for a value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Upload {
    /// The store's path (relative, no leading slash).
    pub path: String,
    pub file_name: String,
    pub size: i64,
    pub mime: String,
    /// Width and height when the file is a PNG, JPEG, GIF or WebP image.
    pub dims: Option<(u32, u32)>,
}

/// The file of a binary input; `None` for an empty input (`null`, `""`, a hash without any
/// file key set).
pub(crate) fn read(
    input: &HashValue,
    cx: &ValueContext<'_>,
    kind: &'static str,
) -> Result<Option<Upload>, ValueError> {
    let given_name = opt_text(field(input, "fileName")).filter(|n| !n.trim().is_empty());
    // The base64 data is read where it lies (no copy) and decoded straight into the store.
    let data: Option<&str> = match input {
        HashValue::Null => return Ok(None),
        HashValue::String(s) if s.trim().is_empty() => return Ok(None),
        HashValue::String(_) => None,
        HashValue::Map(_) => field(input, "data").as_str().filter(|d| !d.is_empty()),
        _ => {
            return Err(ValueError::new(
                kind,
                "Value must be a hash with fileName and data, or inputUri",
            ));
        }
    };
    let stored = match data {
        Some(data) => {
            let file_name = given_name.clone().unwrap_or_else(|| "file".to_string());
            // A name refused is refused before any byte is stored.
            if let Some(refused) = check_file_name(&file_name) {
                return Err(refused);
            }
            let cleaned: String;
            let encoded = if data.bytes().any(|b| b.is_ascii_whitespace()) {
                cleaned = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
                cleaned.as_bytes()
            } else {
                data.as_bytes()
            };
            let mut decoder = base64::read::DecoderReader::new(
                encoded,
                &base64::engine::general_purpose::STANDARD,
            );
            let stored = cx
                .files
                .put_reader(&mut decoder, &file_name)
                .map_err(|e| match e {
                    PutError::Input(_) => {
                        ValueError::new(kind, "The data of the file is not valid base64")
                    }
                    PutError::Store(e) => {
                        ValueError::new(STORE_FAILED, format!("The file could not be stored: {e}"))
                    }
                })?;
            if stored.created
                && let Some(uploads) = cx.uploads
            {
                uploads.note(&stored.path);
            }
            stored
        }
        None => {
            let reference = match input {
                HashValue::String(s) => Some(s.clone()),
                _ => ["inputUri", "id", "path"]
                    .iter()
                    .find_map(|k| opt_text(field(input, k)).filter(|s| !s.trim().is_empty())),
            };
            let Some(reference) = reference else {
                return Ok(None);
            };
            let name = stored_path(&reference, cx);
            match cx.files.stored(&name) {
                Ok(Some(stored)) => stored,
                Err(e) => {
                    return Err(ValueError::new(
                        STORE_FAILED,
                        format!("The stored file '{name}' could not be read: {e}"),
                    ));
                }
                Ok(None) => {
                    return Err(ValueError::new(
                        kind,
                        format!("Argument '$value->inputUri' is invalid: no stored file '{name}'"),
                    ));
                }
            }
        }
    };
    let file_name = given_name.unwrap_or_else(|| {
        stored
            .path
            .rsplit('/')
            .next()
            .unwrap_or(stored.path.as_str())
            .to_string()
    });
    Ok(Some(Upload {
        mime: sniff::mime_type(&stored.head, &file_name),
        dims: sniff::image_size(&stored.head),
        size: stored.size,
        file_name,
        path: stored.path,
    }))
}

/// A stored path from a path or a URI the store gave out (`/var/storage/ab/...`).
fn stored_path(s: &str, cx: &ValueContext<'_>) -> String {
    let s = s.trim();
    let prefix = cx.files.uri("");
    s.strip_prefix(prefix.as_str())
        .unwrap_or(s)
        .trim_start_matches('/')
        .to_string()
}

/// The extensions uploads may not have (the reference's `io.file_storage.file_type_blacklist`
/// default).
pub(crate) const EXTENSION_BLACKLIST: &[&str] =
    &["php", "php3", "phar", "phpt", "pht", "phtml", "pgif"];

/// The reference's `FileExtensionBlackListValidator`: a file name with a path or a
/// blacklisted extension (in any case, also behind trailing dots or spaces, which some
/// servers drop: `evil.php.`) is refused.
pub(crate) fn check_file_name(file_name: &str) -> Option<ValueError> {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or("");
    let ext = base
        .trim_end_matches(['.', ' '])
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if base != file_name || EXTENSION_BLACKLIST.contains(&ext.as_str()) {
        return Some(ValueError::new(
            "fileExtensionBlackList",
            format!(
                "A valid file is required. The following file extensions are not allowed: {}",
                EXTENSION_BLACKLIST.join(", ")
            ),
        ));
    }
    None
}

/// Whether a stored value holds a file (its `id`, the store's path).
pub(crate) fn has_file(value: &HashValue) -> bool {
    field(value, "id").as_str().is_some()
}

/// The `fileName` of a stored value (empty without one).
pub(crate) fn stored_file_name(value: &HashValue) -> String {
    opt_text(field(value, "fileName")).unwrap_or_default()
}

/// The `FileSizeValidator`'s failure of a stored value's `fileSize`, if any.
pub(crate) fn file_size_error(value: &HashValue, def: &Definition<'_>) -> Option<ValueError> {
    let size = field(value, "fileSize").as_i64().unwrap_or(0);
    let max_mb = (def.validators.get("FileSizeValidator")).and_then(|v| v.get("maxFileSize"));
    check_file_size(size, max_mb)
}

/// The reference's `FileSizeValidator`: `maxFileSize` is in megabytes; empty or 0 is no limit.
pub(crate) fn check_file_size(size: i64, max_mb: Option<&HashValue>) -> Option<ValueError> {
    let max = max_mb?.as_f64().filter(|m| *m > 0.0)?;
    if max * 1024.0 * 1024.0 < size as f64 {
        let shown = super::text_of(max_mb?);
        let message = if max == 1.0 {
            format!("The file size cannot exceed {shown} megabyte.")
        } else {
            format!("The file size cannot exceed {shown} megabytes.")
        };
        return Some(ValueError::new("fileSize", message));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::map;
    use crate::field_types::tests::def;

    #[test]
    fn checks_of_a_stored_file() {
        let value = map([
            ("id", "ab/cd/x/f.pdf".into()),
            ("fileName", "f.pdf".into()),
            ("fileSize", (3 * 1024 * 1024).into()),
        ]);
        assert!(has_file(&value));
        assert!(!has_file(&HashValue::Null));
        assert_eq!(stored_file_name(&value), "f.pdf");
        assert_eq!(stored_file_name(&HashValue::Null), "");
        let settings = HashValue::Map(vec![]);
        let limit = |mb: HashValue| map([("FileSizeValidator", map([("maxFileSize", mb)]))]);
        let message = |validators: &HashValue| {
            file_size_error(&value, &def(&settings, validators)).map(|e| e.message)
        };
        assert_eq!(
            message(&limit(2.into())).as_deref(),
            Some("The file size cannot exceed 2 megabytes.")
        );
        assert_eq!(
            message(&limit(1.into())).as_deref(),
            Some("The file size cannot exceed 1 megabyte.")
        );
        assert_eq!(message(&limit(3.into())), None);
        assert_eq!(message(&limit(0.into())), None);
        assert_eq!(message(&HashValue::Map(vec![])), None);
        assert_eq!(
            check_file_name("evil.PHP. ").map(|e| e.kind),
            Some("fileExtensionBlackList")
        );
        assert!(check_file_name("dir/f.txt").is_some());
        assert!(check_file_name("f.txt").is_none());
    }
}
