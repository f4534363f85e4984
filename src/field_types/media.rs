//! `ezmedia`: a media file, stored as `{id (the store's path), fileName, fileSize, mimeType,
//! hasController, autoplay, loop, width, height}`; `null` when empty. Setting `mediaType`
//! (`TYPE_HTML5_VIDEO`, ...); validator `FileSizeValidator` (`maxFileSize`, MB).

use super::binaryfile::{VALIDATORS, file_hash, validate_file};
use super::upload;
use super::*;

pub(crate) struct MediaType;

const MEDIA_TYPES: &[Choice] = &[
    Choice {
        name: "TYPE_FLASH",
        raw: Raw::Str("flash"),
    },
    Choice {
        name: "TYPE_QUICKTIME",
        raw: Raw::Str("quick_time"),
    },
    Choice {
        name: "TYPE_REALPLAYER",
        raw: Raw::Str("real_player"),
    },
    Choice {
        name: "TYPE_SILVERLIGHT",
        raw: Raw::Str("silverlight"),
    },
    Choice {
        name: "TYPE_WINDOWSMEDIA",
        raw: Raw::Str("windows_media_player"),
    },
    Choice {
        name: "TYPE_HTML5_VIDEO",
        raw: Raw::Str("html5_video"),
    },
    Choice {
        name: "TYPE_HTML5_AUDIO",
        raw: Raw::Str("html5_audio"),
    },
];

const SETTINGS: &[Param] = &[param(
    "mediaType",
    Kind::Choice(MEDIA_TYPES),
    Dflt::Str("TYPE_HTML5_VIDEO"),
)];

const FLAGS: [&str; 3] = ["hasController", "autoplay", "loop"];

impl FieldType for MediaType {
    fn name(&self) -> &'static str {
        "media"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        check_settings(input, SETTINGS)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        check_validators(input, VALIDATORS)
    }

    /// As ezbinaryfile, plus `hasController`, `autoplay`, `loop` (default false) and
    /// `width`, `height` (default 0).
    fn from_hash(&self, input: &HashValue, cx: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        let Some(file) = upload::read(input, cx, "id")? else {
            return Ok(HashValue::Null);
        };
        let mut out = vec![
            ("id".to_string(), HashValue::String(file.path)),
            ("fileName".to_string(), HashValue::String(file.file_name)),
            ("fileSize".to_string(), HashValue::Int(file.size)),
            ("mimeType".to_string(), HashValue::String(file.mime)),
        ];
        for flag in FLAGS {
            let v = match field(input, flag) {
                HashValue::Null => false,
                v => v
                    .as_bool()
                    .ok_or_else(|| ValueError::new("id", format!("'{flag}' must be a boolean")))?,
            };
            out.push((flag.to_string(), HashValue::Bool(v)));
        }
        for size in ["width", "height"] {
            let v = match field(input, size) {
                HashValue::Null => 0,
                v => v
                    .as_i64()
                    .ok_or_else(|| ValueError::new("id", format!("'{size}' must be an integer")))?,
            };
            out.push((size.to_string(), HashValue::Int(v)));
        }
        Ok(HashValue::Map(out))
    }

    fn to_hash(&self, value: &HashValue, cx: &ValueContext<'_>) -> HashValue {
        let Some(mut out) = file_hash(value, cx) else {
            return HashValue::Null;
        };
        for key in FLAGS {
            out.push((
                key.to_string(),
                HashValue::Bool(field(value, key).as_bool().unwrap_or(false)),
            ));
        }
        for key in ["width", "height"] {
            out.push((
                key.to_string(),
                HashValue::Int(field(value, key).as_i64().unwrap_or(0)),
            ));
        }
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
