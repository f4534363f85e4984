//! `Language` on the operations that write content in a language (issue 48): a draft's update
//! is checked on the languages of the fields it writes and the initial language it sets, so a
//! translator limited to one language changes that translation only; the same through XML.

use super::*;
use crate::content::publish;

/// A published folder in English and German, and a draft of it; (id, draft number).
async fn bilingual(app: &TestApp) -> (i64, i64) {
    let r = app
        .req("POST", "/content/objects")
        .admin()
        .json_body(
            "ContentCreate",
            json!({"ContentType": {"_href": format!("{PREFIX}/content/types/1")}, "mainLanguageCode": "eng-GB",
                "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2")}},
                "fields": {"field": [
                    {"fieldDefinitionIdentifier": "name", "languageCode": "eng-GB", "fieldValue": "Bridge"},
                    {"fieldDefinitionIdentifier": "name", "languageCode": "ger-DE", "fieldValue": "Brücke"}]}}),
        )
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    publish(app, id, 1).await;
    let d = app
        .req("COPY", &format!("/content/objects/{id}/currentversion"))
        .admin()
        .accept("Version+json")
        .send()
        .await;
    d.assert(201);
    (
        id,
        d.json()["Version"]["VersionInfo"]["versionNo"]
            .as_i64()
            .unwrap(),
    )
}

/// The names of version `no` of `id`, by language (as admin).
async fn names(app: &TestApp, id: i64, no: i64) -> Vec<(String, String)> {
    let r = app
        .get(&format!("/content/objects/{id}/versions/{no}"))
        .admin()
        .accept("Version+json")
        .send()
        .await;
    r.assert(200);
    let mut out: Vec<(String, String)> = r.json()["Version"]["Fields"]["field"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["fieldDefinitionIdentifier"] == "name")
        .map(|f| {
            (
                f["languageCode"].as_str().unwrap().to_string(),
                f["fieldValue"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

/// A translator whose only `content/edit` Policy is limited to `language`.
async fn translator(app: &TestApp, login: &str, language: &str) {
    let user = plain_user(app, login).await;
    role_for(
        app,
        user,
        &format!("Translator-{login}"),
        &[
            json!(["content", "read", []]),
            json!(["content", "versionread", []]),
            json!(["content", "edit", [["Language", [language]]]]),
        ],
        None,
    )
    .await;
}

fn name_in(language: &str, value: &str) -> Value {
    json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": language, "fieldValue": value}]}})
}

#[tokio::test]
async fn a_translator_changes_its_own_language_only() {
    let app =
        TestApp::with_args(&["--language", "ger-DE=German", "--language", "fre-FR=French"]).await;
    translator(&app, "german", "ger-DE").await;
    translator(&app, "english", "eng-GB").await;
    let (id, no) = bilingual(&app).await;
    let draft = format!("/content/objects/{id}/versions/{no}");
    let before = names(&app, id, no).await;
    // The German translator may not touch the English field, nor set English as the
    // initial language; the English one may not add a French translation.
    for (login, body) in [
        ("german", name_in("eng-GB", "Changed")),
        ("german", json!({"initialLanguageCode": "eng-GB"})),
        ("english", name_in("fre-FR", "Pont")),
        ("english", name_in("ger-DE", "Geändert")),
    ] {
        let r = as_user(app.req("PATCH", &draft), login)
            .json_body("VersionUpdate", body.clone())
            .send()
            .await;
        let msg = r.assert_error(401);
        assert!(msg.contains("'edit' 'content'"), "{login} {body}: {msg}");
        assert_eq!(names(&app, id, no).await, before, "{login} {body}: changed");
    }
    // Each changes its own translation.
    as_user(app.req("PATCH", &draft), "german")
        .json_body("VersionUpdate", name_in("ger-DE", "Neue Brücke"))
        .send()
        .await
        .assert(200);
    as_user(app.req("PATCH", &draft), "english")
        .json_body("VersionUpdate", name_in("eng-GB", "New bridge"))
        .send()
        .await
        .assert(200);
    assert_eq!(
        names(&app, id, no).await,
        [
            ("eng-GB".to_string(), "New bridge".to_string()),
            ("ger-DE".to_string(), "Neue Brücke".to_string())
        ]
    );
    // Removing a translation from the draft is writing in it.
    as_user(
        app.req("DELETE", &format!("{draft}/translations/ger-DE")),
        "english",
    )
    .send()
    .await
    .assert_error(401);
    assert_eq!(names(&app, id, no).await.len(), 2);
}

#[tokio::test]
async fn a_translator_is_refused_in_xml_too() {
    let app = TestApp::with_args(&["--language", "ger-DE=German"]).await;
    translator(&app, "german", "ger-DE").await;
    let (id, no) = bilingual(&app).await;
    let draft = format!("/content/objects/{id}/versions/{no}");
    let before = names(&app, id, no).await;
    let body = |language: &str, value: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<VersionUpdate>
  <fields>
    <field>
      <fieldDefinitionIdentifier>name</fieldDefinitionIdentifier>
      <languageCode>{language}</languageCode>
      <fieldValue>{value}</fieldValue>
    </field>
  </fields>
</VersionUpdate>"#
        )
    };
    let r = as_user(app.req("PATCH", &draft), "german")
        .xml_body("VersionUpdate", &body("eng-GB", "Changed"))
        .accept("Version+xml")
        .send()
        .await;
    r.assert_error(401);
    assert!(r.content_type().contains("ErrorMessage+xml"));
    assert_eq!(names(&app, id, no).await, before);
    as_user(app.req("PATCH", &draft), "german")
        .xml_body("VersionUpdate", &body("ger-DE", "Neu"))
        .accept("Version+xml")
        .send()
        .await
        .assert(200);
}
