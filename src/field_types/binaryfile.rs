//! `ezbinaryfile` and `ezmedia`: a file, stored as `{id (the store's path), fileName,
//! fileSize, mimeType, …}`; `null` when empty. One type generic over its kind: an
//! `ezbinaryfile` also stores `downloadCount`; an `ezmedia` stores `hasController`,
//! `autoplay`, `loop`, `width` and `height` and has the setting `mediaType`
//! (`TYPE_HTML5_VIDEO`, ...). Both are validated by `FileSizeValidator` (`maxFileSize`, MB).

use super::upload::{self, check_file_name, file_size_error, has_file, stored_file_name};
use super::*;

/// `ezbinaryfile` or `ezmedia`, by its kind `K`.
pub(crate) struct FileType<K>(pub(crate) K);

/// What a kind of file stores and shows besides the file.
pub(crate) trait FileKind: Send + Sync + 'static {
    const NAME: &'static str;
    const SETTINGS: &'static [Param];
    /// The keys a value stores after the file's own, read from the input.
    fn stored(input: &HashValue) -> Result<Vec<(String, HashValue)>, ValueError>;
    /// The keys of the output after the file's own.
    fn output(value: &HashValue, cx: &ValueContext<'_>) -> Vec<(String, HashValue)>;
}

/// `ezbinaryfile`.
pub(crate) struct Binary;

/// `ezmedia`.
pub(crate) struct Media;

const VALIDATORS: &[ValidatorSchema] = &[(
    "FileSizeValidator",
    &[param("maxFileSize", Kind::OptInt, Dflt::Null)],
)];

impl FileKind for Binary {
    const NAME: &'static str = "binaryfile";
    const SETTINGS: &'static [Param] = &[];

    /// `downloadCount` (default 0).
    fn stored(input: &HashValue) -> Result<Vec<(String, HashValue)>, ValueError> {
        Ok(vec![download_count(input)])
    }

    /// `downloadCount`, then `url` (same as `uri`, kept by REST for BC).
    fn output(value: &HashValue, cx: &ValueContext<'_>) -> Vec<(String, HashValue)> {
        let url = cx.files.uri(field(value, "id").as_str().unwrap_or(""));
        vec![
            download_count(value),
            ("url".into(), HashValue::String(url)),
        ]
    }
}

fn download_count(value: &HashValue) -> (String, HashValue) {
    let count = field(value, "downloadCount").as_i64().unwrap_or(0);
    ("downloadCount".into(), HashValue::Int(count))
}

const MEDIA_TYPES: &[Choice] = &[
    choice("TYPE_FLASH", Raw::Str("flash")),
    choice("TYPE_QUICKTIME", Raw::Str("quick_time")),
    choice("TYPE_REALPLAYER", Raw::Str("real_player")),
    choice("TYPE_SILVERLIGHT", Raw::Str("silverlight")),
    choice("TYPE_WINDOWSMEDIA", Raw::Str("windows_media_player")),
    choice("TYPE_HTML5_VIDEO", Raw::Str("html5_video")),
    choice("TYPE_HTML5_AUDIO", Raw::Str("html5_audio")),
];

const FLAGS: [&str; 3] = ["hasController", "autoplay", "loop"];

const SIZES: [&str; 2] = ["width", "height"];

impl FileKind for Media {
    const NAME: &'static str = "media";
    const SETTINGS: &'static [Param] = &[param(
        "mediaType",
        Kind::Choice(MEDIA_TYPES),
        Dflt::Str("TYPE_HTML5_VIDEO"),
    )];

    /// `hasController`, `autoplay`, `loop` (default false) and `width`, `height` (default 0).
    fn stored(input: &HashValue) -> Result<Vec<(String, HashValue)>, ValueError> {
        let mut out = Vec::new();
        for flag in FLAGS {
            let v = match field(input, flag) {
                HashValue::Null => false,
                v => v
                    .as_bool()
                    .ok_or_else(|| ValueError::new("id", format!("'{flag}' must be a boolean")))?,
            };
            out.push((flag.to_string(), HashValue::Bool(v)));
        }
        for size in SIZES {
            let v = match field(input, size) {
                HashValue::Null => 0,
                v => v
                    .as_i64()
                    .ok_or_else(|| ValueError::new("id", format!("'{size}' must be an integer")))?,
            };
            out.push((size.to_string(), HashValue::Int(v)));
        }
        Ok(out)
    }

    fn output(value: &HashValue, _: &ValueContext<'_>) -> Vec<(String, HashValue)> {
        let flags = FLAGS.map(|key| {
            let on = field(value, key).as_bool().unwrap_or(false);
            (key.to_string(), HashValue::Bool(on))
        });
        let sizes = SIZES.map(|key| {
            let n = field(value, key).as_i64().unwrap_or(0);
            (key.to_string(), HashValue::Int(n))
        });
        flags.into_iter().chain(sizes).collect()
    }
}

/// The output keys of every kind: `id, path, inputUri, fileName, fileSize, mimeType, uri`
/// (`path` and `inputUri` are only set on input in the reference).
fn file_hash(value: &HashValue, cx: &ValueContext<'_>) -> Option<Vec<(String, HashValue)>> {
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

impl<K: FileKind> FieldType for FileType<K> {
    fn schema(&self) -> Schema {
        Schema::named(K::NAME)
            .settings(K::SETTINGS)
            .validators(VALIDATORS)
    }

    /// `{"fileName", "data" (base64)}` or `{"inputUri"|"id": path}` naming a stored file,
    /// with the keys of the kind.
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
        out.extend(K::stored(input)?);
        Ok(HashValue::Map(out))
    }

    /// The file keys, then the kind's.
    fn to_hash(&self, value: &HashValue, cx: &ValueContext<'_>) -> HashValue {
        let Some(mut out) = file_hash(value, cx) else {
            return HashValue::Null;
        };
        out.extend(K::output(value, cx));
        HashValue::Map(out)
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        !has_file(value)
    }

    /// The file name blacklist and the size limit.
    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let file_name = stored_file_name(value);
        check_file_name(&file_name)
            .into_iter()
            .chain(file_size_error(value, def))
            .collect()
    }

    fn name_text(&self, value: &HashValue) -> String {
        stored_file_name(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::cx;

    #[test]
    fn kinds_store_and_show_their_own_keys() {
        let input = |extra: (&str, HashValue)| {
            map([
                ("fileName", "a.txt".into()),
                ("data", "aGVsbG8=".into()),
                extra,
            ])
        };
        let keys = |v: &HashValue| match v {
            HashValue::Map(m) => m.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
            _ => Vec::new(),
        };
        let binary = FileType(Binary);
        let stored = binary
            .from_hash(&input(("downloadCount", 4.into())), &cx())
            .unwrap();
        assert_eq!(
            keys(&stored),
            ["id", "fileName", "fileSize", "mimeType", "downloadCount"]
        );
        assert_eq!(
            keys(&binary.to_hash(&stored, &cx())),
            [
                "id",
                "path",
                "inputUri",
                "fileName",
                "fileSize",
                "mimeType",
                "uri",
                "downloadCount",
                "url"
            ]
        );
        let media = FileType(Media);
        let stored = media
            .from_hash(&input(("loop", true.into())), &cx())
            .unwrap();
        assert_eq!(field(&stored, "loop"), &HashValue::Bool(true));
        assert_eq!(field(&stored, "width"), &HashValue::Int(0));
        assert_eq!(
            media
                .from_hash(&input(("autoplay", "maybe".into())), &cx())
                .unwrap_err(),
            ValueError::new("id", "'autoplay' must be a boolean")
        );
        assert_eq!(
            media
                .from_hash(&input(("height", "tall".into())), &cx())
                .unwrap_err(),
            ValueError::new("id", "'height' must be an integer")
        );
        let out = media.to_hash(&stored, &cx());
        assert_eq!(
            keys(&out)[7..],
            ["hasController", "autoplay", "loop", "width", "height"]
        );
        assert!(media.is_empty(&HashValue::Null) && binary.is_empty(&map([])));
    }
}
