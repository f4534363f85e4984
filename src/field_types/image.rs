//! `ezimage`: an image file, stored as `{id (the store's path), fileName, fileSize, mime,
//! width, height, alternativeText, additionalData}`; `null` when empty. Setting `mimeTypes`
//! (allowed types, empty = any); validators `FileSizeValidator` (`maxFileSize`, MB) and
//! `AlternativeTextValidator` (`required`).

use super::upload::{self, check_file_name, file_size_error, has_file, stored_file_name};
use super::*;
use crate::api::hrefs;

pub(crate) struct ImageType;

/// The id of a stored image: `<contentId>-<fieldId>-<versionNo>`.
pub(crate) fn image_id(f: FieldIds) -> String {
    format!("{}-{}-{}", f.content_id, f.field_id, f.version_no)
}

/// `{alias: {href}}` for every variation of the image `image_id` (`names`: the variations
/// offered, alphabetically).
pub(crate) fn variations(image_id: &str, names: &[String]) -> HashValue {
    HashValue::Map(
        names
            .iter()
            .map(|alias| {
                let href = hrefs::get_image_variation(image_id, alias);
                (alias.to_string(), map([("href", HashValue::Href(href))]))
            })
            .collect(),
    )
}

const SETTINGS: &[Param] = &[param("mimeTypes", Kind::Array, Dflt::EmptyList)];

const VALIDATORS: &[ValidatorSchema] = &[
    (
        "FileSizeValidator",
        &[param("maxFileSize", Kind::Number, Dflt::Null)],
    ),
    (
        "AlternativeTextValidator",
        &[param("required", Kind::Bool, Dflt::Bool(false))],
    ),
];

fn dim(n: Option<u32>) -> HashValue {
    n.map_or(HashValue::Null, |n| HashValue::Int(n as i64))
}

/// The width and height of the image `file`, its data proved whole within the renderer's
/// limits (`images::check`): a decompression bomb or a broken image is refused here, at
/// upload, and never rendered. Images checked before (by their content-addressed path) are
/// not checked again.
fn checked(file: &upload::Upload, cx: &ValueContext<'_>) -> Result<(u32, u32), ValueError> {
    static CHECKED: std::sync::LazyLock<quick_cache::sync::Cache<String, (u32, u32)>> =
        std::sync::LazyLock::new(|| quick_cache::sync::Cache::new(10_000));
    if let Some(dims) = CHECKED.get(&file.path) {
        return Ok(dims);
    }
    let bytes = match cx.files.read(&file.path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err(ValueError::new("id", "The stored image is missing.")),
        Err(e) => {
            return Err(ValueError::new(
                STORE_FAILED,
                format!("The stored file '{}' could not be read: {e}", file.path),
            ));
        }
    };
    let checked = match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => {
            tokio::task::block_in_place(|| crate::images::check(&bytes))
        }
        _ => crate::images::check(&bytes),
    };
    let dims = checked.map_err(|e| ValueError::new("id", e.to_string()))?;
    CHECKED.insert(file.path.clone(), dims);
    Ok(dims)
}

impl FieldType for ImageType {
    fn schema(&self) -> Schema {
        Schema::named("image")
            .settings(SETTINGS)
            .validators(VALIDATORS)
    }

    /// `{"fileName", "data" (base64)[, "alternativeText"]}`, or `{"inputUri"|"id": path}`
    /// naming a stored file; `variations` and other output keys are ignored.
    fn from_hash(&self, input: &HashValue, cx: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let Some(mut file) = upload::read(input, cx, "id")? else {
            return Ok(HashValue::Null);
        };
        if file.dims.is_some() {
            file.dims = Some(checked(&file, cx)?);
        }
        let alt = opt_text(field(input, "alternativeText"));
        let additional = match field(input, "additionalData") {
            v @ (HashValue::Map(_) | HashValue::List(_)) => v.clone(),
            _ => HashValue::List(Vec::new()),
        };
        Ok(map([
            ("id", HashValue::String(file.path)),
            ("fileName", HashValue::String(file.file_name)),
            ("fileSize", HashValue::Int(file.size)),
            ("mime", HashValue::String(file.mime)),
            ("width", dim(file.dims.map(|d| d.0))),
            ("height", dim(file.dims.map(|d| d.1))),
            (
                "alternativeText",
                alt.map_or(HashValue::Null, HashValue::String),
            ),
            ("additionalData", additional),
        ]))
    }

    /// The stored hash plus `path` (with a leading `/`), `imageId`
    /// (`<contentId>-<fieldId>-<versionNo>`), `uri` and one variation href per alias.
    fn to_hash(&self, value: &HashValue, cx: &ValueContext<'_>) -> HashValue {
        let Some(id) = field(value, "id").as_str() else {
            return HashValue::Null;
        };
        let image_id = cx.field.map(image_id);
        let variations = match &image_id {
            Some(image_id) => variations(image_id, cx.variations),
            None => HashValue::Map(Vec::new()),
        };
        let get = |k: &str| field(value, k).clone();
        let additional = match get("additionalData") {
            HashValue::Null => HashValue::List(Vec::new()),
            v => v,
        };
        map([
            ("id", HashValue::String(id.to_string())),
            ("path", HashValue::String(format!("/{id}"))),
            ("alternativeText", get("alternativeText")),
            ("fileName", get("fileName")),
            ("fileSize", get("fileSize")),
            (
                "imageId",
                image_id.map_or(HashValue::Null, HashValue::String),
            ),
            ("uri", HashValue::String(cx.files.uri(id))),
            ("inputUri", HashValue::Null),
            ("width", get("width")),
            ("height", get("height")),
            ("additionalData", additional),
            ("mime", get("mime")),
            ("variations", variations),
        ])
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        !has_file(value)
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let mut errors = Vec::new();
        errors.extend(check_file_name(&stored_file_name(value)));
        let mime = field(value, "mime").as_str().unwrap_or_default();
        if field(value, "width").is_null() || field(value, "height").is_null() {
            errors.push(ValueError::new("id", "A valid image file is required."));
        } else {
            let allowed: Vec<String> = items(field(def.settings, "mimeTypes"))
                .iter()
                .filter_map(opt_text)
                .collect();
            if !allowed.is_empty() && !allowed.iter().any(|m| m == mime) {
                errors.push(ValueError::new(
                    "id",
                    format!(
                        "The mime type of the file is invalid ({mime}). Allowed mime types are {}.",
                        allowed.join(", ")
                    ),
                ));
            }
        }
        errors.extend(file_size_error(value, def));
        let required = field(
            field(def.validators, "AlternativeTextValidator"),
            "required",
        )
        .as_bool()
        .unwrap_or(false);
        if required && opt_text(field(value, "alternativeText")).is_none_or(|t| t.trim().is_empty())
        {
            errors.push(ValueError::new(
                "alternativeText",
                "Alternative text is required.",
            ));
        }
        errors
    }

    /// The alternative text, else the file name.
    fn name_text(&self, value: &HashValue) -> String {
        match field(value, "alternativeText") {
            HashValue::Null => stored_file_name(value),
            alt => text_of(alt),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};
    use base64::Engine;

    #[test]
    fn images() {
        let t = ImageType;
        let png = sniff::samples::png_3x2();
        let data = base64::engine::general_purpose::STANDARD.encode(&png);
        let v = t
            .from_hash(
                &map([("fileName", "p.png".into()), ("data", data.into())]),
                &cx(),
            )
            .unwrap();
        assert_eq!(t.name_text(&v), "p.png");
        let settings = t.settings(&HashValue::Null).unwrap();
        let validators = t
            .validators(&map([(
                "AlternativeTextValidator",
                map([("required", true.into())]),
            )]))
            .unwrap();
        let msgs: Vec<String> = t
            .validate(&v, &def(&settings, &validators))
            .into_iter()
            .map(|e| e.message)
            .collect();
        assert_eq!(msgs, ["Alternative text is required."]);
        // Not an image.
        let txt = t
            .from_hash(
                &map([("fileName", "p.png".into()), ("data", "aGVsbG8=".into())]),
                &cx(),
            )
            .unwrap();
        let errs = t.validate(
            &txt,
            &def(&settings, &t.validators(&HashValue::Null).unwrap()),
        );
        assert_eq!(errs[0].message, "A valid image file is required.");
        // A stored file named by its URI.
        let path = field(&v, "id").as_str().unwrap().to_string();
        let again = t
            .from_hash(
                &map([("inputUri", format!("/var/storage/{path}").into())]),
                &cx(),
            )
            .unwrap();
        assert_eq!(field(&again, "id"), &HashValue::String(path));
        // Without a stored field there is no image id and no variation.
        let no_field = ValueContext {
            field: None,
            ..cx()
        };
        let out = t.to_hash(&v, &no_field);
        assert_eq!(field(&out, "imageId"), &HashValue::Null);
        assert_eq!(field(&out, "variations"), &HashValue::Map(vec![]));
    }
}
