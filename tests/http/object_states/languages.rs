//! Names and descriptions of groups and states merged per language on update.

use super::*;

#[tokio::test]
async fn names_and_descriptions_merge_per_language() {
    let app = DbApp::new().await;
    app.sql(
        "INSERT INTO languages (id, language_code, name, enabled) VALUES (4, 'ger-DE', 'Deutsch', TRUE)",
    )
    .await;
    let (status, body) = app
        .call(
            "POST",
            "/content/objectstategroups",
            Some(("ObjectStateGroupCreate", group_input("colour"))),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let g = body["ObjectStateGroup"]["id"].as_i64().unwrap();
    let patch = async |path: &str, input: &str, body: Value| {
        let (status, body) = app.call("PATCH", path, Some((input, body))).await;
        assert_eq!(status, 200, "{body}");
        body
    };
    let gpath = format!("/content/objectstategroups/{g}");
    let r = patch(
        &gpath,
        "ObjectStateGroupUpdate",
        json!({"names": {"value": [{"_languageCode": "ger-DE", "#text": "Farbe"}]}}),
    )
    .await;
    let o = &r["ObjectStateGroup"];
    assert_eq!(o["languageCodes"], "eng-GB,ger-DE");
    assert_eq!(
        o["names"],
        json!({"value": [
            {"_languageCode": "eng-GB", "#text": "Group colour"},
            {"_languageCode": "ger-DE", "#text": "Farbe"}
        ]})
    );
    assert_eq!(
        o["descriptions"],
        json!({"value": [
            {"_languageCode": "eng-GB", "#text": "A group"},
            {"_languageCode": "ger-DE", "#text": ""}
        ]})
    );
    let r = patch(
        &gpath,
        "ObjectStateGroupUpdate",
        json!({
            "defaultLanguageCode": "ger-DE",
            "descriptions": {"value": [{"_languageCode": "ger-DE", "#text": "Eine Gruppe"}]}
        }),
    )
    .await;
    let o = &r["ObjectStateGroup"];
    assert_eq!(o["defaultLanguageCode"], "ger-DE");
    assert_eq!(o["names"]["value"][0]["#text"], "Group colour");
    assert_eq!(
        o["descriptions"],
        json!({"value": [
            {"_languageCode": "eng-GB", "#text": "A group"},
            {"_languageCode": "ger-DE", "#text": "Eine Gruppe"}
        ]})
    );

    // A state in two languages; a description in a language without a name is dropped.
    let (status, body) = app
        .call(
            "POST",
            &format!("{gpath}/objectstates"),
            Some((
                "ObjectStateCreate",
                json!({
                    "identifier": "red",
                    "priority": 0,
                    "defaultLanguageCode": "ger-DE",
                    "names": {"value": [
                        {"_languageCode": "ger-DE", "#text": "Rot"},
                        {"_languageCode": "eng-GB", "#text": "Red"}
                    ]},
                    "descriptions": {"value": [
                        {"_languageCode": "eng-GB", "#text": "Like fire"},
                        {"_languageCode": "pol-PL", "#text": "Czerwony"}
                    ]}
                }),
            )),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let s = &body["ObjectState"];
    assert_eq!(s["languageCodes"], "ger-DE,eng-GB");
    assert_eq!(
        s["descriptions"],
        json!({"value": [
            {"_languageCode": "ger-DE", "#text": ""},
            {"_languageCode": "eng-GB", "#text": "Like fire"}
        ]})
    );
    let spath = format!("{gpath}/objectstates/{}", s["id"]);
    let r = patch(
        &spath,
        "ObjectStateUpdate",
        json!({"names": {"value": [{"_languageCode": "eng-GB", "#text": "Crimson"}]}}),
    )
    .await;
    assert_eq!(
        r["ObjectState"]["names"],
        json!({"value": [
            {"_languageCode": "ger-DE", "#text": "Rot"},
            {"_languageCode": "eng-GB", "#text": "Crimson"}
        ]})
    );
    // A language that is not installed.
    let (status, body) = app
        .call(
            "PATCH",
            &spath,
            Some((
                "ObjectStateUpdate",
                json!({"names": {"value": [{"_languageCode": "fre-FR", "#text": "Rouge"}]}}),
            )),
        )
        .await;
    assert_eq!(status, 400, "{body}");
}
