//! Image variations (issue 43): the reference's default variations rendered at its sizes from
//! landscape, portrait, small (never enlarged) and EXIF-rotated originals, kept on every
//! backend and served as uploads are; a custom configuration; one render for two requests at
//! once; a bounded render queue; bombs and broken images refused at upload.

use crate::storage::backends;
use crate::support::*;
use base64::Engine;
use image::{DynamicImage, ImageEncoder};
use serde_json::{Value, json};

/// An image of `w` × `h` with a gradient (so that encoders have something to encode).
fn pixels(w: u32, h: u32) -> DynamicImage {
    DynamicImage::ImageRgb8(image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x * 255 / w) as u8, (y * 255 / h) as u8, 90])
    }))
}

pub(crate) fn png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    pixels(w, h)
        .write_with_encoder(image::codecs::png::PngEncoder::new(&mut out))
        .unwrap();
    out
}

/// A JPEG of `w` × `h`, with an EXIF orientation when `orientation` is given.
pub(crate) fn jpeg(w: u32, h: u32, orientation: Option<u16>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90);
    if let Some(o) = orientation {
        // A big-endian TIFF header and one IFD entry: Orientation (0x0112), SHORT, 1.
        let mut exif = b"MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01".to_vec();
        exif.extend_from_slice(&o.to_be_bytes());
        exif.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
        encoder.set_exif_metadata(exif).unwrap();
    }
    let rgb = pixels(w, h).to_rgb8();
    encoder
        .write_image(&rgb, w, h, image::ExtendedColorType::Rgb8)
        .unwrap();
    out
}

/// Creates an Image content item holding `bytes` as `file_name`; the POST's response.
pub(crate) async fn post_image(app: &TestApp, file_name: &str, bytes: &[u8]) -> Resp {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    app.req("POST", "/content/objects")
        .admin()
        .accept("Content+json")
        .json_body(
            "ContentCreate",
            json!({
                "ContentType": {"_href": format!("{PREFIX}/content/types/5")},
                "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/43/51")}},
                "fields": {"field": [
                    {"fieldDefinitionIdentifier": "name", "fieldValue": file_name},
                    {"fieldDefinitionIdentifier": "image", "fieldValue": {"fileName": file_name, "data": data}}
                ]}
            }),
        )
        .send()
        .await
}

/// The image field value of a new Image content item holding `bytes`.
async fn image_value(app: &TestApp, file_name: &str, bytes: &[u8]) -> Value {
    let r = post_image(app, file_name, bytes).await;
    r.assert(201);
    field_of(&r.json()["Content"], "image")["fieldValue"].clone()
}

/// The `ContentImageVariation` of `variation` of an image field value, in JSON.
async fn variation(app: &TestApp, value: &Value, variation: &str) -> Value {
    let href = value["variations"][variation]["href"]
        .as_str()
        .unwrap_or_else(|| panic!("no variation {variation} in {value}"));
    let r = (app.abs("GET", href).admin())
        .accept("ContentImageVariation+json")
        .send()
        .await;
    r.assert(200);
    r.json()["ContentImageVariation"].clone()
}

/// The size of the image at `uri`, read from the served bytes.
pub(crate) async fn served_size(app: &TestApp, uri: &str) -> (u32, u32) {
    let r = app.abs("GET", uri).send().await;
    r.assert(200);
    let img = image::load_from_memory(&r.bytes).unwrap();
    (img.width(), img.height())
}

#[tokio::test]
async fn default_variations_are_rendered_at_the_references_sizes_on_every_backend() {
    let dir = tempfile::tempdir().unwrap();
    // Each original, and the expected size of reference, large, medium, small and tiny.
    type Sizes = [(u32, u32); 5];
    let cases: [(&str, Vec<u8>, Sizes); 4] = [
        (
            "landscape.jpg",
            jpeg(1200, 800, None),
            [(600, 400), (300, 200), (200, 133), (100, 67), (30, 20)],
        ),
        (
            "portrait.png",
            png(400, 1000),
            [(240, 600), (120, 300), (80, 200), (40, 100), (12, 30)],
        ),
        (
            "small.png",
            png(50, 40),
            [(50, 40), (50, 40), (50, 40), (50, 40), (30, 24)],
        ),
        // Stored 300 × 100, shown (orientation 6: turned a quarter clockwise) 100 × 300.
        (
            "rotated.jpg",
            jpeg(300, 100, Some(6)),
            [(100, 300), (100, 300), (67, 200), (33, 100), (10, 30)],
        ),
    ];
    for url in backends(&dir) {
        let app = TestApp::with_args(&["--storage-url", &url]).await;
        for (name, bytes, sizes) in &cases {
            let value = image_value(&app, name, bytes).await;
            let names: Vec<&String> = value["variations"].as_object().unwrap().keys().collect();
            assert_eq!(
                names,
                ["large", "medium", "original", "reference", "small", "tiny"]
            );
            let original = variation(&app, &value, "original").await;
            assert_eq!(original["uri"], value["uri"]);
            assert_eq!(original["fileSize"], bytes.len());
            let mime = if name.ends_with(".jpg") {
                "image/jpeg"
            } else {
                "image/png"
            };
            for (alias, (w, h)) in ["reference", "large", "medium", "small", "tiny"]
                .iter()
                .zip(sizes)
            {
                let v = variation(&app, &value, alias).await;
                let what = format!("{name} {alias} on {url}");
                assert_eq!(
                    (&v["width"], &v["height"]),
                    (&json!(w), &json!(h)),
                    "{what}"
                );
                assert_eq!(v["contentType"], mime, "{what}");
                let uri = v["uri"].as_str().unwrap();
                assert!(
                    uri.starts_with(&format!("/var/storage/_aliases/{alias}/")),
                    "{uri}"
                );
                assert_eq!(served_size(&app, uri).await, (*w, *h), "{what}");
                let r = app.abs("GET", uri).send().await;
                assert_eq!(r.header("content-length"), Some(v["fileSize"].to_string()));
                assert_eq!(r.header("content-type").as_deref(), Some(mime));
            }
        }
        // Served as uploads are: a strong ETag, ranges, immutable, nosniff.
        let value = image_value(&app, "landscape.jpg", &cases[0].1).await;
        let small = variation(&app, &value, "small").await;
        let uri = small["uri"].as_str().unwrap();
        let r = app.abs("GET", uri).send().await;
        let etag = r.header("etag").unwrap();
        assert!(etag.starts_with('"') && etag.len() > 66, "{etag}");
        assert!(r.header("cache-control").unwrap().contains("immutable"));
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff")
        );
        let again = app
            .abs("GET", uri)
            .header("if-none-match", &etag)
            .send()
            .await;
        again.assert(304);
        let part = app
            .abs("GET", uri)
            .header("range", "bytes=0-9")
            .send()
            .await;
        part.assert(206);
        assert_eq!(part.bytes, r.bytes[..10]);
        // In XML too; an unknown variation is a 404.
        let href = value["variations"]["tiny"]["href"].as_str().unwrap();
        let r = app
            .abs("GET", href)
            .admin()
            .accept("ContentImageVariation+xml")
            .send()
            .await;
        r.assert(200);
        let x = r.xml();
        assert_eq!(child_text(&x, "width"), "30");
        assert_eq!(child_text(&x, "height"), "20");
        assert_eq!(child_text(&x, "contentType"), "image/jpeg");
        let gone = href.replace("/tiny", "/gigantic");
        app.abs("GET", &gone).admin().send().await.assert_error(404);
    }
}

#[tokio::test]
async fn a_variation_is_rendered_once_and_found_by_every_instance() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", dir.path().display());
    let app = TestApp::with_args(&["--storage-url", &url]).await;
    let value = image_value(&app, "photo.jpg", &jpeg(1600, 1200, None)).await;
    let before = app.service.images.renders();
    // Two requests at once: one render.
    let (a, b) = tokio::join!(
        variation(&app, &value, "medium"),
        variation(&app, &value, "medium")
    );
    assert_eq!(a, b);
    assert_eq!(app.service.images.renders(), before + 1);
    variation(&app, &value, "medium").await;
    assert_eq!(app.service.images.renders(), before + 1);
    // Another instance over the same storage finds it kept.
    let other = app.another_instance_with(&["--storage-url", &url]).await;
    assert_eq!(variation(&other, &value, "medium").await, a);
    assert_eq!(other.service.images.renders(), 0);
}

/// `cairn serve`'s setup with `extra` options over a fresh database; its error, if any.
async fn setup_error(extra: &[&str]) -> Option<String> {
    use clap::Parser;
    let db = cairn_store::scratch::ScratchDb::new().await;
    let mut args = vec!["cairn", "serve", "--database-url", &db.url];
    args.extend_from_slice(extra);
    let cairn::config::Command::Serve(serve) = cairn::config::Cli::parse_from(args).command else {
        unreachable!()
    };
    cairn::setup(&serve).await.err().map(|e| format!("{e:#}"))
}

#[tokio::test]
async fn custom_variations_come_from_a_file_and_mistakes_stop_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("variations.yaml");
    std::fs::write(
        &file,
        "
ibexa:
    system:
        default:
            image_variations:
                banner:
                    reference: ~
                    filters:
                        geometry/scalewidth: [400]
                        geometry/crop: [400, 100, 0, 50]
                    format: webp
                square:
                    reference: reference
                    filters:
                        - { name: geometry/scaleexact, params: [64, 64] }
                        - { name: strip }
                    format: png
                half:
                    reference: ~
                    filters:
                        geometry/scalepercent: [50, 50]
                    format: jpeg
                    quality: 60
",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let app = TestApp::with_args(&["--image-variations", path]).await;
    let value = image_value(&app, "wide.png", &png(800, 600)).await;
    let names: Vec<&String> = value["variations"].as_object().unwrap().keys().collect();
    assert_eq!(
        names,
        [
            "banner",
            "half",
            "large",
            "medium",
            "original",
            "reference",
            "small",
            "square",
            "tiny"
        ]
    );
    for (alias, w, h, mime) in [
        ("banner", 400, 100, "image/webp"),
        ("square", 64, 64, "image/png"),
        ("half", 400, 300, "image/jpeg"),
        ("small", 100, 75, "image/png"),
    ] {
        let v = variation(&app, &value, alias).await;
        assert_eq!(
            (&v["width"], &v["height"]),
            (&json!(w), &json!(h)),
            "{alias}"
        );
        assert_eq!(v["contentType"], mime, "{alias}");
        let uri = v["uri"].as_str().unwrap();
        assert_eq!(served_size(&app, uri).await, (w, h), "{alias}");
        let r = app.abs("GET", uri).send().await;
        assert_eq!(r.header("content-type").as_deref(), Some(mime), "{alias}");
    }
    // Mistakes in the file stop the start, named.
    std::fs::write(
        &file,
        "thumb: {filters: {geometry/scale: [10, 10], sepia: [], watermark: {}}}",
    )
    .unwrap();
    let e = setup_error(&["--image-variations", path]).await.unwrap();
    assert!(e.contains("unknown filters: sepia, watermark"), "{e}");
    std::fs::write(&file, "thumb: {reference: nothing}").unwrap();
    let e = setup_error(&["--image-variations", path]).await.unwrap();
    assert!(e.contains("'nothing'"), "{e}");
}

/// A PNG whose header announces `w` × `h` pixels (its checksum holds) and whose data is one
/// pixel: what a decompression bomb looks like before it is decoded.
fn bomb(w: u32, h: u32) -> Vec<u8> {
    let mut bytes = png(1, 1);
    bytes[16..20].copy_from_slice(&w.to_be_bytes());
    bytes[20..24].copy_from_slice(&h.to_be_bytes());
    let crc = crc32fast::hash(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    bytes
}

#[tokio::test]
async fn bombs_and_broken_images_are_refused_at_upload() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", dir.path().display());
    let app = TestApp::with_args(&["--storage-url", &url]).await;
    let r = post_image(&app, "bomb.png", &bomb(30_000, 30_000)).await;
    let e = r.assert_error(400);
    let details = r.json()["ErrorMessage"]["errorDetails"].to_string();
    assert!(details.contains("too large"), "{e} {details}");
    // A JPEG cut before its scan, a PNG cut in its data: headers that announce an image.
    let jpeg = jpeg(200, 200, None);
    let scan = jpeg.windows(2).position(|w| w == [0xff, 0xda]).unwrap();
    let png = png(200, 200);
    for (name, broken) in [
        ("broken.jpg", &jpeg[..scan]),
        ("broken.png", &png[..png.len() / 2]),
    ] {
        let r = post_image(&app, name, broken).await;
        r.assert_error(400);
        let details = r.json()["ErrorMessage"]["errorDetails"].to_string();
        assert!(details.contains("cannot be read"), "{name}: {details}");
    }
    // Neither file is kept.
    let kept = crate::storage::objects(&app).await;
    assert!(kept.is_empty(), "{kept:?}");
}

#[tokio::test]
async fn renders_past_the_queue_are_answered_503_with_retry_after() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", dir.path().display());
    let app = TestApp::with_args(&["--storage-url", &url, "--image-queue", "1"]).await;
    let bytes = jpeg(400, 300, None);
    let value = image_value(&app, "photo.jpg", &bytes).await;
    // A backend that does not answer: the original becomes a pipe no one writes to yet, so
    // the first render holds the only place of the queue while it reads.
    let original = dir.path().join(value["id"].as_str().unwrap());
    std::fs::remove_file(&original).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&original).status();
    assert!(made.unwrap().success());
    let ask = |alias: &str| {
        let href = value["variations"][alias]["href"]
            .as_str()
            .unwrap()
            .to_string();
        (app.abs("GET", &href).admin()).accept("ContentImageVariation+json")
    };
    let (first, ()) = tokio::join!(ask("small").send(), async {
        while app.service.images.queued() == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let r = ask("medium").send().await;
        r.assert_error(503);
        assert_eq!(r.header("retry-after").as_deref(), Some("1"));
        // The backend answers again (a failure: a pipe cannot be read as a file).
        let pipe = original.clone();
        tokio::task::spawn_blocking(move || drop(std::fs::File::create(pipe).unwrap()))
            .await
            .unwrap();
    });
    let e = first.assert_error(503);
    assert!(!e.contains("Too many"), "{e}");
    std::fs::remove_file(&original).unwrap();
    std::fs::write(&original, &bytes).unwrap();
    // The queue is free again: both render.
    assert_eq!(app.service.images.queued(), 0);
    assert_eq!(variation(&app, &value, "small").await["width"], 100);
    assert_eq!(variation(&app, &value, "medium").await["width"], 200);
}

#[tokio::test]
async fn the_collector_keeps_variations_while_their_original_is_referenced() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", dir.path().display());
    let app = TestApp::with_args(&["--storage-url", &url]).await;
    let r = post_image(&app, "photo.png", &png(300, 200)).await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    let value = field_of(&r.json()["Content"], "image")["fieldValue"].clone();
    variation(&app, &value, "small").await;
    variation(&app, &value, "tiny").await;
    let (db, files) = (app.service.db.conn(), &app.service.files);
    let now = std::time::Duration::ZERO;
    let kept = cairn::storage::collect(db, files, now, false)
        .await
        .unwrap();
    assert_eq!((kept.referenced, kept.removed.len()), (3, 0));
    // Once the content item is gone, its original and variations go.
    (app.req("DELETE", &format!("/content/objects/{id}")).admin())
        .send()
        .await
        .assert(204);
    let gone = cairn::storage::collect(db, files, now, false)
        .await
        .unwrap();
    assert_eq!((gone.referenced, gone.removed.len()), (0, 3));
    assert!(crate::storage::objects(&app).await.is_empty());
}

/// `cairn images render`: the variations named (or all) of every stored image rendered onto
/// the backend, those kept skipped, a report; a request then renders nothing; an unknown
/// variation and a missing original are failures that say why (exit status 1).
#[tokio::test]
async fn images_render_renders_ahead_what_is_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let storage = dir.path().to_str().unwrap().to_string();
    let app = TestApp::with_args(&["--storage-dir", &storage]).await;
    let first = image_value(&app, "landscape.png", &png(300, 200)).await;
    let second = image_value(&app, "small.jpg", &jpeg(50, 40, None)).await;
    variation(&app, &first, "small").await;
    let render = |extra: &[&str]| {
        let mut args = vec![
            "images",
            "render",
            "--database-url",
            app.url(),
            "--storage-dir",
            &storage,
        ];
        args.extend_from_slice(extra);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(&args)
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        );
        (out.status.success(), format!("{stdout}{stderr}"))
    };
    let (ok, out) = render(&["--variation", "small", "--variation", "tiny"]);
    assert!(ok, "{out}");
    assert!(
        out.contains("2 images; 3 variations rendered, 1 already kept, 0 failed"),
        "{out}"
    );
    // Every configured variation: the five defaults of both, four kept.
    let (ok, out) = render(&[]);
    assert!(ok, "{out}");
    assert!(
        out.contains("2 images; 6 variations rendered, 4 already kept, 0 failed"),
        "{out}"
    );
    // Requests find them all kept, at their sizes.
    let before = app.service.images.renders();
    for alias in ["reference", "large", "medium", "small", "tiny"] {
        variation(&app, &first, alias).await;
        variation(&app, &second, alias).await;
    }
    assert_eq!(variation(&app, &first, "medium").await["width"], 200);
    assert_eq!(variation(&app, &second, "tiny").await["width"], 30);
    assert_eq!(app.service.images.renders(), before);
    // An unknown variation stops it, naming the variations.
    let (ok, out) = render(&["--variation", "huge"]);
    assert!(!ok);
    assert!(out.contains("huge") && out.contains("small"), "{out}");
    // A missing original is a failure, said with its variation and path.
    let third = image_value(&app, "gone.png", &png(20, 20)).await;
    let path = third["id"].as_str().unwrap();
    std::fs::remove_file(dir.path().join(path)).unwrap();
    let (ok, out) = render(&["--variation", "tiny"]);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!("failed tiny of {path}: ")) && out.contains("missing"),
        "{out}"
    );
    assert!(
        out.contains("3 images; 0 variations rendered, 2 already kept, 1 failed"),
        "{out}"
    );
}

/// The reference's functional test of image variations and image asset variations
/// (ibexa/rest 4.6 `BinaryContentTest`), step by step: an Image created in XML with its file
/// inline and left a draft, its `medium` variation served from its version; a content type
/// with an `ezimageasset` field created and published in XML; an item of it pointing at the
/// draft Image, whose value names the Image's variations, the `medium` one served.
#[tokio::test]
async fn the_references_functional_image_asset_test_passes() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", dir.path().display());
    let app = TestApp::with_args(&["--storage-url", &url]).await;
    let bytes = png(300, 200);
    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<ContentCreate>
  <ContentType href="{PREFIX}/content/types/5" />
  <mainLanguageCode>eng-GB</mainLanguageCode>
  <LocationCreate>
    <ParentLocation href="{PREFIX}/content/locations/1/2" />
    <priority>0</priority>
    <hidden>false</hidden>
    <sortField>PATH</sortField>
    <sortOrder>ASC</sortOrder>
  </LocationCreate>
  <Section href="{PREFIX}/content/sections/3" />
  <alwaysAvailable>true</alwaysAvailable>
  <remoteId>testCreateContentWithImageData</remoteId>
  <User href="{PREFIX}/user/users/14" />
  <modificationDate>2012-09-30T12:30:00</modificationDate>
  <fields>
    <field>
      <fieldDefinitionIdentifier>name</fieldDefinitionIdentifier>
      <languageCode>eng-GB</languageCode>
      <fieldValue>testCreateContentWithImageData</fieldValue>
    </field>
    <field>
      <fieldDefinitionIdentifier>image</fieldDefinitionIdentifier>
      <languageCode>eng-GB</languageCode>
      <fieldValue>
            <value key="fileName">pixels.png</value>
            <value key="fileSize">{}</value>
            <value key="data">{data}</value>
      </fieldValue>
    </field>
  </fields>
</ContentCreate>"#,
        bytes.len()
    );
    let r = (app.req("POST", "/content/objects").admin())
        .accept("ContentInfo+json")
        .xml_body("ContentCreate", &xml)
        .send()
        .await;
    r.assert(201);
    let image_href = r.header("location").unwrap();
    let image_id = last_id(&image_href);
    // testGetImageVariation: the draft's image field names its variations; medium is served.
    let r = app
        .abs("GET", &format!("{image_href}/versions/1"))
        .admin()
        .accept("Version+json")
        .send()
        .await;
    r.assert(200);
    let fields = r.json()["Version"]["Fields"]["field"].clone();
    let image = fields[2].clone();
    assert_eq!(image["fieldDefinitionIdentifier"], "image", "{fields}");
    let medium = image["fieldValue"]["variations"]["medium"]["href"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = app.abs("GET", &medium).admin().send().await;
    r.assert(200);
    // Without an Accept header, as the suite asks: XML.
    assert_eq!(child_text(&r.xml(), "width"), "200", "{}", r.body);
    // testGetImageAssetVariations: a content type with an image asset field, published.
    let r = (app
        .req("POST", "/content/typegroups/3/types?publish=true")
        .admin())
    .accept("ContentType+json")
    .xml_body(
        "ContentTypeCreate",
        r#"<?xml version="1.0" encoding="UTF-8"?>
<ContentTypeCreate>
  <identifier>image_asset_ct</identifier>
  <names>
    <value languageCode="eng-GB">Image Asset content type</value>
  </names>
  <remoteId>image_asset_ct</remoteId>
  <urlAliasSchema>&lt;title&gt;</urlAliasSchema>
  <nameSchema>&lt;title&gt;</nameSchema>
  <isContainer>true</isContainer>
  <mainLanguageCode>eng-GB</mainLanguageCode>
  <defaultAlwaysAvailable>true</defaultAlwaysAvailable>
  <defaultSortField>PATH</defaultSortField>
  <defaultSortOrder>ASC</defaultSortOrder>
  <FieldDefinitions>
    <FieldDefinition>
      <identifier>title</identifier>
      <fieldType>ezstring</fieldType>
      <fieldGroup>content</fieldGroup>
      <position>1</position>
      <isTranslatable>true</isTranslatable>
      <isRequired>true</isRequired>
      <isInfoCollector>false</isInfoCollector>
      <defaultValue>New Title</defaultValue>
      <isSearchable>true</isSearchable>
      <names>
        <value languageCode="eng-GB">Title</value>
      </names>
      <descriptions>
        <value languageCode="eng-GB">This is the title</value>
      </descriptions>
    </FieldDefinition>
    <FieldDefinition>
      <identifier>image_asset</identifier>
      <fieldType>ezimageasset</fieldType>
      <fieldGroup>content</fieldGroup>
      <position>2</position>
      <isTranslatable>true</isTranslatable>
      <isRequired>true</isRequired>
      <isInfoCollector>false</isInfoCollector>
      <isSearchable>true</isSearchable>
      <names>
        <value languageCode="eng-GB">Image Asset</value>
      </names>
    </FieldDefinition>
   </FieldDefinitions>
</ContentTypeCreate>"#,
    )
    .send()
    .await;
    r.assert(201);
    let type_href = r.header("location").unwrap();
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<ContentCreate>
  <ContentType href="{type_href}" />
  <mainLanguageCode>eng-GB</mainLanguageCode>
  <LocationCreate>
    <ParentLocation href="{PREFIX}/content/locations/1/2" />
    <priority>0</priority>
    <hidden>false</hidden>
    <sortField>PATH</sortField>
    <sortOrder>ASC</sortOrder>
  </LocationCreate>
  <Section href="{PREFIX}/content/sections/1" />
  <alwaysAvailable>true</alwaysAvailable>
  <User href="{PREFIX}/user/users/14" />
  <modificationDate>2012-09-30T12:30:00</modificationDate>
  <fields>
    <field>
      <fieldDefinitionIdentifier>title</fieldDefinitionIdentifier>
      <languageCode>eng-GB</languageCode>
      <fieldValue>Test Image asset</fieldValue>
    </field>
     <field>
      <fieldDefinitionIdentifier>image_asset</fieldDefinitionIdentifier>
      <languageCode>eng-GB</languageCode>
      <fieldValue>
        <value key="destinationContentId">{image_id}</value>
        <value key="alternativeText">test</value>
      </fieldValue>
    </field>
  </fields>
</ContentCreate>"#
    );
    let r = (app.req("POST", "/content/objects").admin())
        .accept("Content+json")
        .xml_body("ContentCreate", &xml)
        .send()
        .await;
    r.assert(201);
    let content = r.json()["Content"].clone();
    let version = &content["CurrentVersion"]["Version"];
    let asset = &version["Fields"]["field"][1];
    assert_eq!(asset["fieldDefinitionIdentifier"], "image_asset");
    let medium = asset["fieldValue"]["variations"]["medium"]["href"]
        .as_str()
        .unwrap_or_else(|| panic!("no variations in {asset}"));
    let r = app.abs("GET", medium).admin().send().await;
    r.assert(200);
    assert_eq!(child_text(&r.xml(), "width"), "200", "{}", r.body);
    let version_href = version["_href"].as_str().unwrap();
    app.abs("PUBLISH", version_href)
        .admin()
        .send()
        .await
        .assert(204);
}
