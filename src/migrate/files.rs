//! The files of image, binary file and media fields: the stored value of each, its file read
//! from the old site's storage directory (`--files DIR`: the site's root, or its storage
//! directory) and stored on cairn's backend. A file the database names but the directory
//! lacks is listed in the report and the value keeps the old path; without `--files` every
//! value keeps the old path (the files can be copied later) and no file is read.

use super::Cx;
use super::definitions::attr;
use super::source::Row;
use crate::field_types::sniff;
use crate::storage::Stored;
use cairn_runtime::HashValue;
use cairn_runtime::xml::XmlElement;

fn map(pairs: Vec<(&str, HashValue)>) -> HashValue {
    HashValue::Map(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// The path below the storage directory of a legacy path (`var/site/storage/images/a.png`
/// → `images/a.png`).
pub fn relative(path: &str) -> String {
    match path.find("storage/") {
        Some(i) => path[i + "storage/".len()..].to_string(),
        None => path.trim_start_matches('/').to_string(),
    }
}

/// Stores the old site's file `path` (as the database names it); the stored file, or `None`
/// without `--files` or when it is missing (then reported).
async fn copy(cx: &mut Cx<'_>, path: &str, name: &str) -> Option<Stored> {
    let dir = cx.files_dir.clone()?;
    let rel = relative(path);
    let found = [dir.join(path.trim_start_matches('/')), dir.join(&rel)]
        .into_iter()
        .find(|p| p.is_file());
    let Some(found) = found else {
        cx.report.missing_files.push(path.to_string());
        return None;
    };
    let files = cx.files;
    let name = name.to_string();
    let stored = std::fs::File::open(&found)
        .map_err(|e| e.to_string())
        .and_then(|mut f| {
            files
                .put_reader(&mut f, &name)
                .map_err(|e| format!("{e:?}"))
        });
    match stored {
        Ok(s) => Some(s),
        Err(why) => {
            cx.report
                .missing_files
                .push(format!("{path} (cannot be stored: {why})"));
            None
        }
    }
}

/// The stored `ezimage` value of its legacy XML (`<ezimage url=… original_filename=…>`). A
/// file copied gives its size, MIME type, width and height from its bytes (its header); a
/// file absent keeps what the XML says.
pub async fn image(cx: &mut Cx<'_>, xml: &str) -> HashValue {
    let Ok(x) = XmlElement::parse(xml) else {
        return HashValue::Null;
    };
    let url = attr(&x, "url").unwrap_or_default();
    if url.is_empty() {
        return HashValue::Null;
    }
    let name = attr(&x, "original_filename")
        .filter(|n| !n.is_empty())
        .or_else(|| attr(&x, "filename"))
        .unwrap_or_default();
    let int = |k: &str| attr(&x, k).and_then(|v| v.parse::<i64>().ok());
    let claimed = (int("width"), int("height"));
    let (id, size, mime, (width, height)) = match copy(cx, &url, &name).await {
        Some(stored) => {
            let dims = sniff::image_size(&stored.head);
            (
                stored.path,
                stored.size,
                sniff::mime_type(&stored.head, &name),
                dims.map_or(claimed, |(w, h)| (Some(w.into()), Some(h.into()))),
            )
        }
        None => (
            relative(&url),
            int("filesize").unwrap_or(0),
            attr(&x, "mime_type").unwrap_or_default(),
            claimed,
        ),
    };
    let alt = attr(&x, "alternative_text").filter(|a| !a.is_empty());
    let dim = |n: Option<i64>| n.map_or(HashValue::Null, HashValue::Int);
    map(vec![
        ("id", HashValue::String(id)),
        ("fileName", HashValue::String(name)),
        ("fileSize", HashValue::Int(size)),
        ("mime", HashValue::String(mime)),
        ("width", dim(width)),
        ("height", dim(height)),
        (
            "alternativeText",
            alt.map_or(HashValue::Null, HashValue::String),
        ),
        ("additionalData", HashValue::List(Vec::new())),
    ])
}

/// The stored `ezbinaryfile` / `ezmedia` value of its `ezbinaryfile` / `ezmedia` row: the file
/// is `original/<mime type's first part>/<filename>` below the storage directory.
pub async fn binary(cx: &mut Cx<'_>, row: Option<&Row>, media: bool) -> HashValue {
    let Some(r) = row else {
        return HashValue::Null;
    };
    let mime = r.text("mime_type");
    let major = mime.split('/').next().unwrap_or("application").to_string();
    let path = format!("original/{major}/{}", r.text("filename"));
    let name = r.text("original_filename");
    let (id, size) = copy(cx, &path, &name)
        .await
        .map_or((path, 0), |s| (s.path, s.size));
    let mut pairs = vec![
        ("id", HashValue::String(id)),
        ("fileName", HashValue::String(name)),
        ("fileSize", HashValue::Int(size)),
        ("mimeType", HashValue::String(mime)),
    ];
    if media {
        pairs.extend([
            (
                "hasController",
                HashValue::Bool(r.int("has_controller") != 0),
            ),
            ("autoplay", HashValue::Bool(r.int("is_autoplay") != 0)),
            ("loop", HashValue::Bool(r.int("is_loop") != 0)),
            ("width", HashValue::Int(r.int("width"))),
            ("height", HashValue::Int(r.int("height"))),
        ]);
    } else {
        pairs.push(("downloadCount", HashValue::Int(r.int("download_count"))));
    }
    map(pairs)
}
