//! `--files DIR`: the files the image, binary file and media fields name are stored on cairn's
//! backend and served from there, an image's size and type read from its bytes; a file the
//! directory lacks is listed in the report, and the migration goes on.

use super::source::{Data, Server, SourceDb};
use crate::support::*;
use cairn::migrate::Options;
use cairn_store::scratch::ScratchDb;

/// The fixture's one image file (field 172, version 2), below the site's storage directory.
const IMAGE: &str =
    "images/design/plain-site/172-2-eng-US/Ibexa-Demo-Design-without-demo-content1.png";

#[tokio::test]
async fn files_are_stored_and_missing_ones_listed() {
    let Some(source) = SourceDb::new(Server::MariaDb, Data::Fixture).await else {
        return;
    };
    // The old site's directory holds the image; another image the database names is absent.
    source
        .run(
            "UPDATE ezcontentobject_attribute SET data_text = '<?xml version=\"1.0\"?><ezimage url=\"var/site/storage/images/gone.png\" \
             original_filename=\"gone.png\" mime_type=\"image/png\" width=\"1\" height=\"1\"/>' WHERE id = 180 AND version = 3",
        )
        .await;
    let old = tempfile::tempdir().unwrap();
    let file = old.path().join("var/ibexa_demo_site/storage").join(IMAGE);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    // A PNG of 3 × 2 pixels, whatever the image XML says of it.
    let bytes = crate::images::png(3, 2);
    std::fs::write(&file, &bytes).unwrap();

    let target = ScratchDb::new().await;
    let storage = tempfile::tempdir().unwrap();
    let db = target.open(2).await;
    let files = cairn::storage::Storage::open(None, storage.path(), "/var/storage").unwrap();
    let options = Options {
        from: source.url.clone(),
        files: Some(old.path().to_path_buf()),
        quiet: true,
        ..Options::default()
    };
    let report = cairn::migrate::migrate(&db, &files, &options)
        .await
        .unwrap();
    assert_eq!(report.missing_files, ["var/site/storage/images/gone.png"]);
    assert!(
        report
            .to_string()
            .contains("missing file: var/site/storage/images/gone.png")
    );
    drop(db);

    let rows = source
        .rows(
            "SELECT contentobject_id FROM ezcontentobject_attribute WHERE id = 172 AND version = 2",
        )
        .await;
    let content: i64 = rows[0][0].as_deref().unwrap().parse().unwrap();
    let dir = storage.path().to_string_lossy().to_string();
    let app = TestApp::over_scratch(target, &["--storage-dir", &dir]).await;
    let v = app
        .get(&format!("/content/objects/{content}/versions/2"))
        .admin()
        .accept("Version+json")
        .send()
        .await
        .json();
    let fields = v["Version"]["Fields"]["field"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let image = fields.iter().find(|f| f["id"] == 172).expect("field 172");
    let value = &image["fieldValue"];
    assert_eq!(value["fileSize"], bytes.len() as i64, "{value}");
    // Size and type from the bytes copied.
    assert_eq!((&value["width"], &value["height"]), (&3.into(), &2.into()));
    assert_eq!(value["mime"], "image/png");
    let xml = (source
        .rows("SELECT data_text FROM ezcontentobject_attribute WHERE id = 172 AND version = 2"))
    .await;
    let xml = xml[0][0].clone().unwrap_or_default();
    let original = (xml.split("original_filename=\"").nth(1))
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_string();
    assert_eq!(value["fileName"], original);
    let uri = value["uri"].as_str().unwrap().to_string();
    let r = app.abs("GET", &uri).send().await;
    r.assert(200);
    assert_eq!(r.bytes, bytes);
    // Its variations are rendered from the migrated original (3 × 2: never enlarged).
    let href = value["variations"]["small"]["href"].as_str().unwrap();
    let r = (app.abs("GET", href).admin())
        .accept("ContentImageVariation+json")
        .send()
        .await;
    r.assert(200);
    let small = r.json()["ContentImageVariation"].clone();
    assert_eq!((&small["width"], &small["height"]), (&3.into(), &2.into()));
    let rendered = small["uri"].as_str().unwrap();
    assert_ne!(rendered, uri, "a file of its own");
    assert_eq!(crate::images::served_size(&app, rendered).await, (3, 2));
}
