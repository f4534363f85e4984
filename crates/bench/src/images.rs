//! The image scenario (issue 43 point 5): how long rendering a variation takes, and whether a
//! kept variation is served at the rate of any uploaded file.
//!
//! On a fresh server rendering on one thread (`--image-workers 1`), `--image-renders` image
//! items are created, each holding a 12-megapixel JPEG (4000 × 3000, the same picture with a
//! different byte after its end, so that each is a file of its own to render), one request at
//! a time, and each creation is timed (the upload's check of the image in it); then `small`
//! is asked of each, one request at a time, and each request is timed: the render (decode,
//! resize, encode) and its storing, which nothing else then runs beside. Then, under load
//! against their ceilings: the kept `small` of the first image (its file URI), and the same
//! bytes uploaded as an image of their own (its original's URI).

use crate::bulk::ADMIN;
use crate::client::{Conn, Request};
use crate::load::Load;
use crate::report::Outcome;
use crate::scenarios::PREFIX;
use crate::server::Cairn;
use anyhow::{Result, bail};
use std::time::Instant;

/// The scenario's name for `--scenario`.
pub const NAME: &str = "images";

/// The picture rendered: `width` × `height`, a gradient with some texture, as JPEG (quality
/// 90), as a camera would give it.
fn photo(width: u32, height: u32) -> Result<Vec<u8>> {
    let img = image::RgbImage::from_fn(width, height, |x, y| {
        let noise = (x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)) % 32;
        image::Rgb([
            (x * 255 / width) as u8 ^ noise as u8,
            (y * 255 / height) as u8,
            ((x + y) % 256) as u8,
        ])
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90).encode_image(&img)?;
    Ok(out)
}

/// Creates an image item holding `bytes`; its image field value.
async fn upload(conn: &mut Conn, name: &str, bytes: &[u8]) -> Result<serde_json::Value> {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    let body = serde_json::json!({"ContentCreate": {
        "ContentType": {"_href": format!("{PREFIX}/content/types/5")},
        "mainLanguageCode": "eng-GB",
        "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/43/51")}},
        "fields": {"field": [
            {"fieldDefinitionIdentifier": "name", "fieldValue": name},
            {"fieldDefinitionIdentifier": "image", "fieldValue": {"fileName": format!("{name}.jpg"), "data": data}},
        ]},
    }});
    let req = Request::new("POST", &format!("{PREFIX}/content/objects"))
        .header("Authorization", ADMIN)
        .header(
            "Content-Type",
            "application/vnd.ibexa.api.ContentCreate+json",
        )
        .header("Accept", "application/vnd.ibexa.api.Content+json")
        .body(body.to_string());
    let resp = conn.send(&req).await?;
    if resp.status != 201 {
        bail!(
            "creating {name} answered {}: {}",
            resp.status,
            resp.excerpt()
        );
    }
    let content = resp.json()?;
    let fields = content["Content"]["CurrentVersion"]["Version"]["Fields"]["field"].clone();
    let value = (fields.as_array().into_iter().flatten())
        .find(|f| f["fieldDefinitionIdentifier"] == "image")
        .map(|f| f["fieldValue"].clone());
    match value {
        Some(v) if v["variations"]["small"]["href"].is_string() => Ok(v),
        _ => bail!("{name} has no image value: {}", resp.excerpt()),
    }
}

/// Asks `variation` of an image field value; its `ContentImageVariation`.
async fn variation(
    conn: &mut Conn,
    value: &serde_json::Value,
    variation: &str,
) -> Result<serde_json::Value> {
    let href = value["variations"][variation]["href"]
        .as_str()
        .unwrap_or_default();
    let req = Request::new("GET", href)
        .header("Authorization", ADMIN)
        .header(
            "Accept",
            "application/vnd.ibexa.api.ContentImageVariation+json",
        );
    let resp = conn.send(&req).await?;
    if resp.status != 200 {
        bail!("{href} answered {}: {}", resp.status, resp.excerpt());
    }
    Ok(resp.json()?["ContentImageVariation"].clone())
}

/// Upload and render times (ms, in the order measured) and the two serving outcomes.
pub struct Report {
    /// Each image's `POST /content/objects` (its base64 body read, the image checked, stored).
    pub upload_ms: Vec<f64>,
    pub render_ms: Vec<f64>,
    pub served: Vec<Outcome>,
}

/// Runs the scenario with `renders` images.
pub async fn run(cairn: &Cairn, renders: usize, load: Load) -> Result<Report> {
    let dir = tempfile::tempdir()?;
    let storage = dir.path().join("storage");
    let storage = storage.to_string_lossy();
    let server = cairn
        .start_on(
            dir.path(),
            PREFIX,
            None,
            &["--storage-dir", &storage, "--image-workers", "1"],
        )
        .await?;
    let addr = server.addr;
    let mut conn = Conn::connect(addr).await?;
    let t = Instant::now();
    let photo = photo(4000, 3000)?;
    eprintln!(
        "{NAME}: a 4000 x 3000 JPEG of {} KB made in {:.1} s",
        photo.len() / 1024,
        t.elapsed().as_secs_f64()
    );
    let mut values = Vec::new();
    let mut upload_ms = Vec::new();
    for n in 0..renders.max(1) {
        let mut bytes = photo.clone();
        bytes.extend_from_slice(&(n as u64).to_le_bytes());
        let t = Instant::now();
        values.push(upload(&mut conn, &format!("photo {n}"), &bytes).await?);
        upload_ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let mut render_ms = Vec::new();
    let mut small = serde_json::Value::Null;
    for value in &values {
        let t = Instant::now();
        let v = variation(&mut conn, value, "small").await?;
        render_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        if small.is_null() {
            small = v;
        }
    }
    let (Some(uri), Some(size)) = (small["uri"].as_str(), small["fileSize"].as_i64()) else {
        bail!("unexpected variation: {small}");
    };
    let list = |ms: &[f64]| {
        let ms: Vec<String> = ms.iter().map(|ms| format!("{ms:.1}")).collect();
        ms.join(", ")
    };
    eprintln!(
        "{NAME}: uploaded in {}; small is {} x {}, {size} bytes; rendered in {}",
        list(&upload_ms),
        small["width"],
        small["height"],
        list(&render_ms)
    );
    // The kept variation's bytes uploaded as an original of their own: a file of the same size.
    let kept = conn.send(&Request::new("GET", uri)).await?;
    if kept.status != 200 {
        bail!("{uri} answered {}", kept.status);
    }
    let same = upload(&mut conn, "small as an upload", &kept.body).await?;
    let Some(original) = same["uri"].as_str() else {
        bail!("unexpected image value: {same}");
    };
    let mut served = Vec::new();
    let kept_req = Request::new("GET", uri);
    served.push(crate::measure("image-variation-kept", addr, &kept_req, dir.path(), load).await?);
    let file_req = Request::new("GET", original);
    served.push(crate::measure("image-uploaded-file", addr, &file_req, dir.path(), load).await?);
    Ok(Report {
        upload_ms,
        render_ms,
        served,
    })
}

/// The upload and render times as a Markdown table, then the serving table.
pub fn markdown(report: &Report, load: Load) -> String {
    let row = |what: &str, ms: &[f64]| {
        let mut sorted = ms.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        format!(
            "| {what} | {} | {:.1} | {:.1} | {:.1} |\n",
            sorted.len(),
            at(0.0),
            at(0.5),
            at(1.0)
        )
    };
    format!(
        "| a 4000 × 3000 JPEG, ms per request | requests | min | p50 | max |\n\
         | --- | ---: | ---: | ---: | ---: |\n{}{}\n{}",
        row(
            "uploaded (an image item created with it)",
            &report.upload_ms
        ),
        row("`small` rendered (one thread)", &report.render_ms),
        crate::report::markdown(&report.served, load)
    )
}

/// The report for `--json`: each upload's and render's milliseconds, and the served files' outcomes.
pub fn json(report: &Report, load: Load) -> serde_json::Value {
    serde_json::json!({
        "upload_ms": report.upload_ms,
        "render_ms": report.render_ms,
        "served": crate::report::json(&report.served, load),
    })
}
