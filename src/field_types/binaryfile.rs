//! `ezbinaryfile`: a file, stored as `{id (the store's path), fileName, fileSize, mimeType,
//! downloadCount}`; `null` when empty. Validator `FileSizeValidator` (`maxFileSize`, MB).

use super::upload::{self, check_file_name, check_file_size};
use super::*;

pub(crate) struct BinaryFileType;

pub(crate) const VALIDATORS: &[ValidatorSchema] = &[(
    "FileSizeValidator",
    &[param("maxFileSize", Kind::OptInt, Dflt::Null)],
)];

/// The checks shared by the binary types: file name blacklist and size limit.
pub(crate) fn validate_file(value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
    let file_name = opt_text(field(value, "fileName")).unwrap_or_default();
    let size = field(value, "fileSize").as_i64().unwrap_or(0);
    check_file_name(&file_name)
        .into_iter()
        .chain(check_file_size(
            size,
            def.validators
                .get("FileSizeValidator")
                .and_then(|v| v.get("maxFileSize")),
        ))
        .collect()
}

/// The output keys common to ezbinaryfile and ezmedia: `id, path, inputUri, fileName,
/// fileSize, mimeType, uri` (`path` and `inputUri` are only set on input in the reference).
pub(crate) fn file_hash(
    value: &HashValue,
    cx: &ValueContext<'_>,
) -> Option<Vec<(String, HashValue)>> {
    let id = field(value, "id").as_str()?;
    let get = |k: &str| field(value, k).clone();
    let HashValue::Map(m) = map([
        ("id", HashValue::String(id.to_string())),
        ("path", HashValue::Null),
        ("inputUri", HashValue::Null),
        ("fileName", get("fileName")),
        ("fileSize", get("fileSize")),
        ("mimeType", get("mimeType")),
        ("uri", HashValue::String(cx.files.uri(id))),
    ]) else {
        return None;
    };
    Some(m)
}

impl FieldType for BinaryFileType {
    fn name(&self) -> &'static str {
        "binaryfile"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        no_settings(input)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        check_validators(input, VALIDATORS)
    }

    /// `{"fileName", "data" (base64)}` or `{"inputUri"|"id": path}` naming a stored file.
    fn from_hash(&self, input: &HashValue, cx: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let Some(file) = upload::read(input, cx, "id")? else {
            return Ok(HashValue::Null);
        };
        Ok(map([
            ("id", HashValue::String(file.path)),
            ("fileName", HashValue::String(file.file_name)),
            ("fileSize", HashValue::Int(file.size)),
            ("mimeType", HashValue::String(file.mime)),
            (
                "downloadCount",
                HashValue::Int(field(input, "downloadCount").as_i64().unwrap_or(0)),
            ),
        ]))
    }

    /// The file keys, `downloadCount`, then `url` (same as `uri`, kept by REST for BC).
    fn to_hash(&self, value: &HashValue, cx: &ValueContext<'_>) -> HashValue {
        let Some(mut out) = file_hash(value, cx) else {
            return HashValue::Null;
        };
        out.push((
            "downloadCount".into(),
            HashValue::Int(field(value, "downloadCount").as_i64().unwrap_or(0)),
        ));
        out.push((
            "url".into(),
            HashValue::String(cx.files.uri(field(value, "id").as_str().unwrap_or(""))),
        ));
        HashValue::Map(out)
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        field(value, "id").as_str().is_none()
    }

    fn validate(
        &self,
        value: &HashValue,
        def: &Definition<'_>,
        _cx: &ValueContext<'_>,
    ) -> Vec<ValueError> {
        validate_file(value, def)
    }

    fn sort_key(&self, _value: &HashValue) -> SortKey {
        SortKey::None
    }

    fn name_text(&self, value: &HashValue) -> String {
        opt_text(field(value, "fileName")).unwrap_or_default()
    }
}
