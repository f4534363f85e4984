//! Reads of the clean install's groups, types and Field definitions: the reference ids,
//! both formats' element order, list windows and filters, and the content type view.

use super::*;

#[tokio::test]
async fn clean_install_groups_and_types_have_the_reference_ids() {
    let app = TestApp::new().await;
    // The groups and the types, each list with the reference's ids.
    for (path, list, item, want) in [
        (
            "/content/typegroups",
            "ContentTypeGroupList",
            "ContentTypeGroup",
            &[(1, "Content"), (2, "Users"), (3, "Media")][..],
        ),
        (
            "/content/types",
            "ContentTypeInfoList",
            "ContentType",
            &[
                (1, "folder"),
                (2, "article"),
                (3, "user_group"),
                (4, "user"),
                (5, "image"),
                (12, "file"),
            ],
        ),
    ] {
        let r = app.get(path).accept(&format!("{list}+json")).send().await;
        r.assert(200);
        let got = id_and(&items(&r.json(), list, item), "id", "identifier");
        let want: Vec<(i64, String)> = want.iter().map(|(i, s)| (*i, s.to_string())).collect();
        assert_eq!(got, want, "{path}");
    }

    let r = app
        .get("/content/types/2")
        .accept("ContentType+json")
        .send()
        .await;
    r.assert(200);
    let ct = r.json()["ContentType"].clone();
    assert_eq!(ct["status"], "DEFINED");
    assert_eq!(ct["remoteId"], "c15b600eb9198b1924063b5a68758232");
    assert_eq!(ct["nameSchema"], "<short_title|title>");
    assert_eq!(ct["isContainer"], true);
    assert_eq!(ct["defaultAlwaysAvailable"], false);
    let fields = field_ids(&ct);
    let ids: Vec<i64> = fields.iter().map(|f| f.1).collect();
    assert_eq!(ids, [1, 152, 153, 120, 121, 123, 154]);
    let title = &ct["FieldDefinitions"]["FieldDefinition"][0];
    assert_eq!(title["fieldType"], "ezstring");
    assert_eq!(title["isRequired"], true);
    assert_eq!(title["defaultValue"], "New article");
    assert_eq!(
        title["validatorConfiguration"]["StringLengthValidator"]["maxStringLength"],
        255
    );
    assert_eq!(
        ct["FieldDefinitions"]["FieldDefinition"][6]["fieldType"],
        "ezobjectrelation"
    );

    let user = app
        .get("/content/types/4")
        .accept("ContentType+json")
        .send()
        .await
        .json();
    let account = &user["ContentType"]["FieldDefinitions"]["FieldDefinition"][2];
    assert_eq!(account["identifier"], "user_account");
    assert_eq!(account["fieldType"], "ezuser");
    assert_eq!(account["id"], 12);
    assert_eq!(account["isTranslatable"], false);

    // XML, with the reference's element order.
    let r = app.get("/content/types/1").send().await;
    let x = r.xml();
    let names: Vec<&str> = x.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "id",
            "status",
            "identifier",
            "names",
            "descriptions",
            "creationDate",
            "modificationDate",
            "Creator",
            "Modifier",
            "Groups",
            "Draft",
            "remoteId",
            "urlAliasSchema",
            "nameSchema",
            "isContainer",
            "mainLanguageCode",
            "defaultAlwaysAvailable",
            "defaultSortField",
            "defaultSortOrder",
            "FieldDefinitions"
        ]
    );
    assert_eq!(attr(&x, "href"), "/api/ibexa/v2/content/types/1");
    let fd = &x.children.last().unwrap().children[0];
    let fd_names: Vec<&str> = fd.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        fd_names,
        [
            "id",
            "identifier",
            "fieldType",
            "fieldGroup",
            "position",
            "isTranslatable",
            "isRequired",
            "isInfoCollector",
            "defaultValue",
            "isSearchable",
            "names",
            "descriptions",
            "fieldSettings",
            "validatorConfiguration"
        ]
    );
    assert_eq!(
        attr(fd, "href"),
        "/api/ibexa/v2/content/types/1/fieldDefinitions/4"
    );
}

#[tokio::test]
async fn type_lists_lookups_and_field_definition_reads() {
    let app = TestApp::new().await;
    let list = |q: &str| {
        app.get(&format!("/content/types{q}"))
            .accept("ContentTypeInfoList+json")
    };
    // Filters, windows and orders, each with the ids it lists; as in the reference, a limit
    // given is 1 or more, and a negative offset counts as 0.
    for (q, want) in [
        ("?identifier=image", &[5][..]),
        ("?remoteId=637d58bfddf164627bdfd265733280a0", &[12]),
        ("?limit=2&offset=1", &[2, 3]),
        ("?orderby=name&sort=desc", &[3, 4, 5, 1, 12, 2]),
        ("?orderby=name", &[2, 12, 1, 5, 4, 3]),
        ("?offset=4", &[5, 12]),
        ("?offset=-1&limit=1", &[1]),
    ] {
        let got = type_ids(&list(q).send().await.json(), "ContentTypeInfoList");
        assert_eq!(got, want, "{q}");
    }
    expect_all(vec![
        (list("?identifier=nothing"), 404),
        (list("?orderby=size"), 400),
        (list("?sort=up"), 400),
        (list("?limit=-2"), 400),
        (list("?limit=-1"), 400),
        (list("?limit=0"), 400),
        (list("?limit=x"), 400),
    ])
    .await;
    let full = app
        .get("/content/types?identifier=file")
        .accept("ContentTypeList+json")
        .send()
        .await;
    assert_eq!(
        full.json()["ContentTypeList"]["ContentType"][0]["FieldDefinitions"]["FieldDefinition"][2]
            ["identifier"],
        "file"
    );

    let r = app
        .get("/content/types/12/fieldDefinitions")
        .accept("FieldDefinitionList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        items(&r.json(), "FieldDefinitions", "FieldDefinition").len(),
        3
    );
    let r = app
        .get("/content/types/12/fieldDefinitions/148")
        .accept("FieldDefinition+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["FieldDefinition"]["fieldType"], "ezbinaryfile");
    assert!(r.header("etag").is_some());
    let r = app
        .get("/content/types/12/fieldDefinition/file")
        .accept("FieldDefinition+json")
        .send()
        .await;
    assert_eq!(r.json()["FieldDefinition"]["id"], 148);
    // Named as it was asked for (issue 11), in both formats.
    assert_eq!(
        r.json()["FieldDefinition"]["_href"],
        "/api/ibexa/v2/content/types/12/fieldDefinition/file"
    );
    let x = app
        .get("/content/types/12/fieldDefinition/file")
        .accept("FieldDefinition+xml")
        .send()
        .await
        .xml();
    assert_eq!(
        attr(&x, "href"),
        "/api/ibexa/v2/content/types/12/fieldDefinition/file"
    );
    expect_all(vec![
        (app.get("/content/types/12/fieldDefinitions/4"), 404),
        (app.get("/content/types/99/fieldDefinitions"), 404),
        (app.get("/content/types/12/fieldDefinition/nope"), 404),
    ])
    .await;

    // A content type view by group id; the group name criterion ignores case, as the
    // reference's (issue 11).
    for (criterion, want) in [
        (json!({"ContentTypeGroupIdCriterion": 3}), [12, 5]),
        (json!({"ContentTypeGroupNameCriterion": "MEDIA"}), [12, 5]),
    ] {
        let r = app
            .req("POST", "/content/types/view")
            .accept("ContentTypeList+json")
            .json_body(
                "ContentTypeViewInput",
                json!({"identifier": "v", "ContentTypeQuery": {"Query": criterion, "SortClauses": {"Id": "descending"}, "limit": 10}}),
            )
            .send()
            .await;
        r.assert(200);
        assert_eq!(type_ids(&r.json(), "ContentTypeList"), want, "{criterion}");
    }
}
