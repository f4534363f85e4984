//! Root, countries and languages.

use crate::support::*;

const ROOT_LINKS: &[(&str, &str, &str)] = &[
    ("content", "", "/content/objects"),
    ("contentByRemoteId", "", "/content/objects{?remoteId}"),
    ("contentTypes", "ContentTypeInfoList", "/content/types"),
    ("contentTypeByIdentifier", "", "/content/types{?identifier}"),
    (
        "contentTypeGroups",
        "ContentTypeGroupList",
        "/content/typegroups",
    ),
    (
        "contentTypeGroupByIdentifier",
        "",
        "/content/typegroups{?identifier}",
    ),
    ("users", "UserRefList", "/user/users"),
    ("usersByRoleId", "UserRefList", "/user/users{?roleId}"),
    ("usersByRemoteId", "UserRefList", "/user/users{?remoteId}"),
    ("usersByEmail", "UserRefList", "/user/users{?email}"),
    ("usersByLogin", "UserRefList", "/user/users{?login}"),
    ("roles", "RoleList", "/user/roles"),
    ("rootLocation", "Location", "/content/locations/1/2"),
    ("rootUserGroup", "UserGroup", "/user/groups/1/5"),
    ("rootMediaFolder", "Location", "/content/locations/1/43"),
    ("locationByRemoteId", "", "/content/locations{?remoteId}"),
    ("locationByPath", "", "/content/locations{?locationPath}"),
    ("trash", "Trash", "/content/trash"),
    ("sections", "SectionList", "/content/sections"),
    ("views", "RefList", "/views"),
    (
        "objectStateGroups",
        "ObjectStateGroupList",
        "/content/objectstategroups",
    ),
    (
        "objectStates",
        "ObjectStateList",
        "/content/objectstategroups/{objectStateGroupId}/objectstates",
    ),
    ("globalUrlAliases", "UrlAliasRefList", "/content/urlaliases"),
    ("urlWildcards", "UrlWildcardList", "/content/urlwildcards"),
    ("createSession", "UserSession", "/user/sessions"),
    (
        "refreshSession",
        "UserSession",
        "/user/sessions/{sessionId}/refresh",
    ),
    ("createToken", "JWT", "/user/token/jwt"),
];

#[tokio::test]
async fn root_lists_every_link_in_xml() {
    let app = TestApp::new().await;
    let r = app.get("/").send().await;
    r.assert(200);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.Root+xml");
    let x = r.xml();
    assert_eq!(x.name, "Root");
    assert_eq!(attr(&x, "media-type"), "application/vnd.ibexa.api.Root+xml");
    assert_eq!(x.children.len(), ROOT_LINKS.len());
    for (el, (name, media, href)) in x.children.iter().zip(ROOT_LINKS) {
        assert_eq!(el.name, *name);
        let expected = if media.is_empty() {
            String::new()
        } else {
            format!("application/vnd.ibexa.api.{media}+xml")
        };
        assert_eq!(attr(el, "media-type"), expected, "{name}");
        assert_eq!(attr(el, "href"), format!("/api/ibexa/v2{href}"), "{name}");
    }
    // Without the trailing slash too.
    app.abs("GET", "/api/ibexa/v2").send().await.assert(200);
}

#[tokio::test]
async fn root_lists_every_link_in_json() {
    let app = TestApp::new().await;
    let r = app.get("/").accept("Root+json").send().await;
    r.assert(200);
    let j = r.json();
    let root = j["Root"].as_object().unwrap();
    assert_eq!(root["_media-type"], "application/vnd.ibexa.api.Root+json");
    let keys: Vec<&String> = root.keys().filter(|k| !k.starts_with('_')).collect();
    let names: Vec<&str> = ROOT_LINKS.iter().map(|l| l.0).collect();
    assert_eq!(keys, names);
    for (name, media, href) in ROOT_LINKS {
        let expected = if media.is_empty() {
            String::new()
        } else {
            format!("application/vnd.ibexa.api.{media}+json")
        };
        assert_eq!(root[*name]["_media-type"], expected.as_str());
        assert_eq!(root[*name]["_href"], format!("/api/ibexa/v2{href}"));
    }
    let etag = r.header("etag").unwrap();
    app.get("/")
        .header("if-none-match", &etag)
        .send()
        .await
        .assert(304);
}

#[tokio::test]
async fn countries_are_the_whole_iso_3166_list() {
    let app = TestApp::new().await;
    let r = app
        .get("/services/countries")
        .accept("CountriesList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(
        r.content_type(),
        "application/vnd.ibexa.api.CountryList+json"
    );
    let j = r.json();
    let list = j["CountryList"]["Country"].as_array().unwrap();
    assert_eq!(list.len(), 249);
    let no = list.iter().find(|c| c["_id"] == "NO").unwrap();
    assert_eq!(no["name"], "Norway");
    assert_eq!(no["Alpha3"], "NOR");
    assert_eq!(no["IDC"], 47);
    assert_eq!(no["_media-type"], "application/vnd.ibexa.api.Country+json");

    let r = app.get("/services/countries").send().await;
    let x = r.xml();
    assert_eq!(x.name, "CountryList");
    let first = &x.children[0];
    assert_eq!(attr(first, "id"), "AF");
    assert_eq!(child_text(first, "Alpha2"), "AF");
    assert_eq!(child_text(first, "IDC"), "93");
}

#[tokio::test]
async fn languages_list_and_load() {
    let app = TestApp::new().await;
    let r = app
        .get("/languages")
        .accept("LanguageList+json")
        .send()
        .await;
    r.assert(200);
    let j = r.json();
    assert_eq!(j["LanguageList"]["_href"], "/api/ibexa/v2/languages");
    assert_eq!(j["LanguageList"]["Language"][0]["languageCode"], "eng-GB");
    assert_eq!(j["LanguageList"]["Language"][0]["languageId"], 2);

    let r = app.get("/languages/eng-GB").send().await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "Language");
    assert_eq!(attr(&x, "href"), "/api/ibexa/v2/languages/eng-GB");
    assert_eq!(child_text(&x, "name"), "English (United Kingdom)");
    assert!(r.header("etag").is_some());

    app.get("/languages/xxx-XX")
        .accept("Language+json")
        .send()
        .await
        .assert_error(404);
}
