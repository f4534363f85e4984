//! GraphQL (issue 46): `/graphql` as ibexa/graphql 4.6 answers it. The admin UI's sub-items
//! query in the shape it reads, the domain schema's names (and a content type created through
//! REST queried at once, on a second instance too), field values, the `_repository` schema,
//! permissions with their counts, limits, the request forms and their errors, and a page's
//! statements bounded whatever its size.

use crate::content::{publish_name, published_folder};
use crate::permissions::{PW, plain_user, role_for};
use crate::support::*;
use serde_json::{Value, json};

/// The admin UI's query (ibexa/admin-ui 4.6 `sub.items.service.js`), as it builds it.
fn sub_items(location: i64, limit: i64, sort: &str, after: Option<&str>) -> String {
    let after = after
        .map(|c| format!(", after: \"{c}\""))
        .unwrap_or_default();
    format!(
        "{{ _repository {{ location(locationId: {location}) {{ pathString
          children({sort} first:{limit} {after}) {{ totalCount pages {{ number cursor }}
            edges {{ node {{ id remoteId invisible hidden priority pathString
              content {{ _thumbnail {{ uri alternativeText mimeType }} _name
                _info {{ id name remoteId mainLanguageCode
                  owner {{ id name thumbnail {{ uri alternativeText mimeType }} content {{ _type {{ identifier }} }} }}
                  currentVersion {{ versionNumber creator {{ id name thumbnail {{ uri alternativeText mimeType }} content {{ _type {{ identifier }} }} }} languageCodes }}
                  contentType {{ name identifier }} section {{ name }}
                  publishedDate {{ timestamp }} modificationDate {{ timestamp }} }} }} }} }} }} }} }} }}"
    )
}

/// POSTs `query` (with `variables`) as JSON with HTTP Basic as `login`; the answer's JSON.
async fn gql_as(
    app: &TestApp,
    login: Option<(&str, &str)>,
    query: &str,
    variables: Value,
) -> Value {
    let mut r = app.abs("POST", "/graphql");
    if let Some((l, p)) = login {
        r = r.basic(l, p);
    }
    let body = json!({"query": query, "variables": variables}).to_string();
    let r = r.raw_body("application/json", &body).send().await;
    r.assert(200);
    assert_eq!(r.content_type(), "application/json");
    r.json()
}

/// The first error's message of `query` asked as admin.
async fn error_of(app: &TestApp, query: &str) -> String {
    let v = gql_as(app, Some(ADMIN), query, Value::Null).await;
    v["errors"][0]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("{query}: no error in {v}"))
        .to_string()
}

async fn gql(app: &TestApp, query: &str) -> Value {
    let v = gql_as(app, Some(ADMIN), query, Value::Null).await;
    assert!(v.get("errors").is_none(), "{query}: {v}");
    v["data"].clone()
}

/// The statements `query` costs, asked the second time (the first may read what later ones
/// find kept: logins, Policies), and its answer.
async fn statements_of(app: &TestApp, query: &str) -> (u64, Value) {
    gql(app, query).await;
    let before = app.statements();
    let v = gql(app, query).await;
    (app.statements() - before, v)
}

/// A folder named `name` under the Location `parent` (a path), published; its content id.
async fn folder(app: &TestApp, parent: &str, name: &str) -> i64 {
    published_folder(app, name, parent).await.0
}

/// A folder named `name` under Location 2, published; the id of its Location.
async fn folder_location(app: &TestApp, name: &str) -> i64 {
    last_id(&published_folder(app, name, "1/2").await.1)
}

#[tokio::test]
async fn the_admin_uis_sub_items_query_is_answered_in_the_shape_it_reads() {
    let app = TestApp::new().await;
    let at = folder_location(&app, "Parent").await;
    for name in ["Alpha", "Beta", "Gamma"] {
        folder(&app, &format!("1/2/{at}"), name).await;
    }
    // In a session, as the admin UI asks: its CSRF token and its siteaccess.
    let (cookie, token) = app.login().await;
    let query = sub_items(at, 2, "sortBy: [_name, _desc], ", None);
    let body = json!({ "query": query }).to_string();
    let r = app
        .abs("POST", "/graphql")
        .header("cookie", &cookie)
        .header("x-csrf-token", &token)
        .header("x-siteaccess", "admin")
        .raw_body("application/json", &body)
        .send()
        .await;
    r.assert(200);
    let v = r.json();
    assert!(v.get("errors").is_none(), "{v}");
    let location = &v["data"]["_repository"]["location"];
    assert_eq!(location["pathString"], format!("/1/2/{at}/"));
    let children = &location["children"];
    assert_eq!(children["totalCount"], 3);
    // Pages from the second, each with the cursor before its first item (the reference's).
    assert_eq!(
        children["pages"],
        json!([{"number": 2, "cursor": "YXJyYXljb25uZWN0aW9uOjE="}])
    );
    let edges = children["edges"].as_array().unwrap();
    let names: Vec<&str> = edges
        .iter()
        .map(|e| e["node"]["content"]["_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Gamma", "Beta"]);
    let node = &edges[0]["node"];
    assert_eq!(node["hidden"], false);
    assert_eq!(node["invisible"], false);
    assert_eq!(node["priority"], 0);
    let info = &node["content"]["_info"];
    assert_eq!(info["name"], "Gamma");
    assert_eq!(info["mainLanguageCode"], "eng-GB");
    assert_eq!(info["owner"]["id"], 14);
    assert_eq!(info["owner"]["name"], "Administrator User");
    assert_eq!(info["owner"]["content"]["_type"]["identifier"], "user");
    assert_eq!(info["currentVersion"]["versionNumber"], 1);
    assert_eq!(
        info["currentVersion"]["creator"]["name"],
        "Administrator User"
    );
    assert_eq!(info["currentVersion"]["languageCodes"], json!(["eng-GB"]));
    assert_eq!(
        info["contentType"],
        json!({"name": "Folder", "identifier": "folder"})
    );
    assert_eq!(info["section"]["name"], "Standard");
    assert!(info["publishedDate"]["timestamp"].as_i64().unwrap() > 1_700_000_000);
    assert_eq!(
        node["content"]["_thumbnail"]["mimeType"], "image/svg+xml",
        "a folder's thumbnail is its content type's icon"
    );
    // The next page from its cursor.
    let cursor = children["pages"][0]["cursor"].as_str().unwrap();
    let next = gql(
        &app,
        &sub_items(at, 2, "sortBy: [_name, _desc], ", Some(cursor)),
    )
    .await;
    let edges = next["_repository"]["location"]["children"]["edges"]
        .as_array()
        .unwrap();
    assert_eq!(edges.len(), 1);
    assert_eq!(edges[0]["node"]["content"]["_name"], "Alpha");
    // A POST in a session without its CSRF token is refused, as REST's writes are.
    let r = app
        .abs("POST", "/graphql")
        .header("cookie", &cookie)
        .raw_body("application/json", &body)
        .send()
        .await;
    assert_eq!(r.status.as_u16(), 401);
    assert!(r.json()["errors"][0]["message"].is_string());
}

/// Image variations of a page of items cost no statement of their own: the items were read
/// as the caller, and their variations are found (or rendered) from their field values.
#[tokio::test]
async fn variations_of_a_page_cost_the_same_statements_whatever_its_size() {
    let storage = tempfile::tempdir().unwrap();
    let app = TestApp::with_args(&[
        "--cache-mib",
        "0",
        "--storage-dir",
        storage.path().to_str().unwrap(),
    ])
    .await;
    for i in 0..6 {
        let r =
            crate::images::post_image(&app, &format!("p{i}.png"), &crate::images::png(300, 200))
                .await;
        r.assert(201);
        let id = r.json()["Content"]["_id"].as_i64().unwrap();
        app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
            .admin()
            .send()
            .await
            .assert(204);
    }
    let mut costs = Vec::new();
    for size in [2, 6] {
        let query = format!(
            "{{ media {{ images(first: {size}) {{ edges {{ node {{ image {{ variation(identifier: small) {{ width uri }} }} }} }} }} }} }}"
        );
        let (cost, v) = statements_of(&app, &query).await;
        costs.push(cost);
        let edges = v["media"]["images"]["edges"].as_array().unwrap();
        assert_eq!(edges.len(), size);
        for e in edges {
            assert_eq!(e["node"]["image"]["variation"]["width"], 100, "{e}");
        }
    }
    assert_eq!(costs[0], costs[1], "statements of 2 and of 6 variations");
}

/// `LocationSortByOptions` sort a Location's children by every clause the reference maps,
/// `_isMainLocation` and `_visibility` among them (its `Location\IsMainLocation`, true after
/// false, and `Location\Visibility`, visible first).
#[tokio::test]
async fn children_sort_by_main_location_and_visibility() {
    let app = TestApp::new().await;
    let at = folder_location(&app, "Parent").await;
    let (_, a) = published_folder(&app, "A", &format!("1/2/{at}")).await;
    published_folder(&app, "B", &format!("1/2/{at}")).await;
    // C's main Location is elsewhere; it has a second one here.
    let (c, _) = published_folder(&app, "C", "1/2").await;
    app.req("POST", &format!("/content/objects/{c}/locations"))
        .admin()
        .json_body(
            "LocationCreate",
            json!({"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2/{at}")}}),
        )
        .send()
        .await
        .assert(201);
    // A is hidden.
    app.req("PATCH", &format!("/content/locations/{a}"))
        .admin()
        .json_body("LocationUpdate", json!({"hidden": true}))
        .send()
        .await
        .assert(200);
    let names = |sort: &str| {
        let query = format!(
            "{{ _repository {{ location(locationId: {at}) {{ children(sortBy: [{sort}]) {{ edges {{ node {{ content {{ _name }} }} }} }} }} }} }}"
        );
        let app = &app;
        async move {
            let v = gql(app, &query).await;
            let edges = v["_repository"]["location"]["children"]["edges"].clone();
            let names: Vec<String> = (edges.as_array().unwrap().iter())
                .map(|e| e["node"]["content"]["_name"].as_str().unwrap().to_string())
                .collect();
            names
        }
    };
    assert_eq!(names("_name").await, ["A", "B", "C"]);
    assert_eq!(names("_visibility, _name").await, ["B", "C", "A"]);
    assert_eq!(names("_visibility, _desc, _name").await, ["A", "B", "C"]);
    assert_eq!(names("_isMainLocation, _name").await, ["C", "A", "B"]);
    assert_eq!(
        names("_isMainLocation, _desc, _name").await,
        ["A", "B", "C"]
    );
}

#[tokio::test]
async fn a_page_costs_the_same_statements_whatever_its_size() {
    // Without the response cache: every query runs.
    let app = TestApp::with_args(&["--cache-mib", "0"]).await;
    let at = folder_location(&app, "Parent").await;
    for i in 0..12 {
        folder(&app, &format!("1/2/{at}"), &format!("Child {i:02}")).await;
    }
    let mut costs = Vec::new();
    for size in [2, 12] {
        let (cost, v) = statements_of(&app, &sub_items(at, size, "", None)).await;
        costs.push(cost);
        let edges = v["_repository"]["location"]["children"]["edges"]
            .as_array()
            .unwrap();
        assert_eq!(edges.len(), size as usize);
    }
    assert_eq!(costs[0], costs[1], "statements of a page of 2 and of 12");
    assert!(costs[0] > 5, "the query ran: {} statements", costs[0]);
    // Every item's Locations, URL, URL aliases and relations too: one view, a walk up the URL
    // alias tree and a few statements for the relations of the page's items.
    let mut costs = Vec::new();
    for size in [2, 12] {
        let query = format!(
            "{{ _repository {{ location(locationId: {at}) {{ children(first: {size}) {{ edges {{ node {{ id urlAliases {{ path languageCodes location {{ id }} }} content {{ _url _allLocations {{ id pathString }} _info {{ relations {{ type }} reverseRelations {{ type }} }} }} }} }} }} }} }} }}"
        );
        let (cost, v) = statements_of(&app, &query).await;
        costs.push(cost);
        for e in v["_repository"]["location"]["children"]["edges"]
            .as_array()
            .unwrap()
        {
            assert_eq!(
                e["node"]["content"]["_allLocations"][0]["id"],
                e["node"]["id"]
            );
            let url = e["node"]["content"]["_url"].as_str().unwrap_or_default();
            assert!(url.starts_with("/Parent/Child-"), "{url}");
            let aliases = &e["node"]["urlAliases"];
            assert_eq!(aliases[0]["path"], url, "{aliases}");
            assert_eq!(aliases[0]["languageCodes"], json!(["eng-GB"]));
            assert_eq!(aliases[0]["location"]["id"], e["node"]["id"]);
        }
    }
    assert_eq!(
        costs[0], costs[1],
        "statements with the Locations, URLs, aliases and relations of 2 and of 12 items"
    );
}

/// The tree's root (Location 1, no content item) is a Location as REST loads it: the parent
/// of the top Locations for those who may read it, null for the others.
#[tokio::test]
async fn the_roots_location_is_the_parent_of_the_top_ones() {
    let app = TestApp::new().await;
    let q =
        "{ _repository { location(locationId: 2) { parentLocation { id pathString depth } } } }";
    let v = gql(&app, q).await;
    assert_eq!(
        v["_repository"]["location"]["parentLocation"],
        json!({"id": 1, "pathString": "/1/", "depth": 0})
    );
    let rest = app.get("/content/locations/1").send().await.status.as_u16();
    let v = gql_as(&app, None, q, Value::Null).await;
    let parent = &v["data"]["_repository"]["location"]["parentLocation"];
    match rest {
        200 => assert_eq!(parent["id"], 1, "{v}"),
        _ => assert_eq!(*parent, Value::Null, "{v}"),
    }
}

/// `Location.urlAliases` as the reference's `listLocationAliases`: the generated aliases unless
/// `custom: true` asks for the custom ones, each with its languages, flags and Location; null
/// for a Location the caller may not read.
#[tokio::test]
async fn a_locations_url_aliases_are_listed_as_the_reference_lists_them() {
    let app = TestApp::new().await;
    let at = folder_location(&app, "Aliased").await;
    let r = app
        .req("POST", "/content/urlaliases")
        .admin()
        .accept("UrlAlias+json")
        .json_body(
            "UrlAliasCreate",
            json!({"_type": "LOCATION",
                   "location": {"_href": format!("/api/ibexa/v2/content/locations/1/2/{at}")},
                   "path": "/short", "languageCode": "eng-GB",
                   "alwaysAvailable": "true", "forward": "true"}),
        )
        .send()
        .await;
    r.assert(201);
    let custom_id = r.json()["UrlAlias"]["_id"].as_str().unwrap().to_string();
    let fields = "id path languageCodes alwaysAvailable isHistory isCustom forward location { id }";
    let q = format!(
        "{{ _repository {{ location(locationId: {at}) {{ generated: urlAliases {{ {fields} }} \
         all: urlAliases(custom: false) {{ path }} custom: urlAliases(custom: true) {{ {fields} }} }} }} }}"
    );
    let l = gql(&app, &q).await["_repository"]["location"].clone();
    assert_eq!(l["all"], json!([{"path": "/Aliased"}]));
    assert_eq!(
        l["custom"],
        json!([{"id": custom_id, "path": "/short", "languageCodes": ["eng-GB"],
                "alwaysAvailable": true, "isHistory": false, "isCustom": true,
                "forward": true, "location": {"id": at}}])
    );
    // The generated one only, as the reference's default, with the values REST gives it.
    let generated = l["generated"].as_array().unwrap();
    assert_eq!(generated.len(), 1, "{generated:?}");
    let g = &generated[0];
    let rest = app
        .get(&format!(
            "/content/urlaliases/{}",
            g["id"].as_str().unwrap()
        ))
        .accept("UrlAlias+json")
        .send()
        .await;
    rest.assert(200);
    let rest = rest.json()["UrlAlias"].clone();
    assert_eq!(g["path"], "/Aliased");
    assert_eq!(g["path"], rest["path"]);
    assert_eq!(g["languageCodes"], json!([rest["languageCodes"]]));
    assert_eq!(g["alwaysAvailable"], rest["alwaysAvailable"]);
    assert_eq!(g["isHistory"], rest["isHistory"]);
    assert_eq!(g["isCustom"], rest["custom"]);
    assert_eq!(g["isCustom"], false);
    assert_eq!(g["forward"], rest["forward"]);
    assert_eq!(g["location"]["id"], at);
    // A Location anonymous may not read (the users' tree): no aliases, no Location.
    let users = "{ _repository { location(locationId: 5) { urlAliases { path } } } }";
    let v = gql_as(&app, None, users, Value::Null).await;
    assert_eq!(v["data"]["_repository"]["location"], Value::Null, "{v}");
}

#[tokio::test]
async fn the_domain_schema_follows_the_reference_and_the_content_types() {
    let app = TestApp::new().await;
    let sdl = cairn::graphql::sdl(&app.service).await.unwrap();
    for expected in [
        "type ArticleItem implements Item & Node {",
        "articles(after: String, first: Int, before: String, last: Int, query: ContentSearchQuery, sortBy: [SortByOptions]): ArticleItemConnection",
        "article(contentId: Int, remoteId: String, locationId: Int, locationRemoteId: String, urlAlias: String): ArticleItem",
        "type ItemGroupContent {",
        "content: ItemGroupContent",
        "type ItemGroupMediaTypes {",
        "image: ImageItemType",
        "userGroups(",
        "enum ContentTypeIdentifier {",
        "enum ImageVariationIdentifier {",
        "type FolderItemType implements ItemType {",
        "shortName(language: RepositoryLanguage): String",
    ] {
        assert!(sdl.contains(expected), "no '{expected}' in:\n{sdl}");
    }
    // A content type made through REST is in the schema at the next query, without a
    // restart; so is it on a second instance over the same database.
    let other = app.another_instance().await;
    gql(&other, "{ content { folders { totalCount } } }").await;
    for identifier in ["blog_post", "blog-post"] {
        let create = json!({"identifier": identifier, "mainLanguageCode": "eng-GB",
            "names": {"value": [{"_languageCode": "eng-GB", "#text": "Blog post"}]},
            "nameSchema": "<title>",
            "FieldDefinitions": {"FieldDefinition": [
                {"identifier": "title", "fieldType": "ezstring", "fieldGroup": "content", "position": 1,
                 "isTranslatable": true, "isRequired": true, "isSearchable": true,
                 "names": {"value": [{"_languageCode": "eng-GB", "#text": "Title"}]}},
                {"identifier": "id", "fieldType": "ezinteger", "fieldGroup": "content", "position": 2,
                 "isTranslatable": false, "isRequired": false, "isSearchable": true,
                 "names": {"value": [{"_languageCode": "eng-GB", "#text": "Id"}]}}]}});
        let r = app
            .req("POST", "/content/typegroups/1/types?publish=true")
            .admin()
            .json_body("ContentTypeCreate", create)
            .accept("ContentType+json")
            .send()
            .await;
        r.assert(201);
    }
    let ty = last_id(
        app.get("/content/types?identifier=blog_post")
            .admin()
            .accept("ContentTypeInfoList+json")
            .send()
            .await
            .json()["ContentTypeInfoList"]["ContentType"][0]["_href"]
            .as_str()
            .unwrap(),
    );
    let c = create_content(
        &app,
        json!({"ContentType": {"_href": format!("{PREFIX}/content/types/{ty}")},
               "mainLanguageCode": "eng-GB",
               "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2")}},
               "Section": {"_href": format!("{PREFIX}/content/sections/1")},
               "fields": {"field": [
                   {"fieldDefinitionIdentifier": "title", "languageCode": "eng-GB", "fieldValue": "Hello"},
                   {"fieldDefinitionIdentifier": "id", "languageCode": "eng-GB", "fieldValue": 7}]}}),
    )
    .await;
    let id = c["_id"].as_i64().unwrap();
    app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await
        .assert(204);
    let query = format!(
        "{{ content {{ blogPosts {{ totalCount edges {{ node {{ title id_ }} }} }}
             blogPost(contentId: {id}) {{ title _name _contentInfo {{ id }} }}
             _types {{ blogPost {{ _info {{ identifier }} title {{ identifier }} }} }} }} }}"
    );
    for instance in [&app, &other] {
        let v = gql(instance, &query).await;
        let content = &v["content"];
        assert_eq!(content["blogPosts"]["totalCount"], 1);
        assert_eq!(
            content["blogPosts"]["edges"][0]["node"],
            json!({"title": "Hello", "id_": 7})
        );
        assert_eq!(content["blogPost"]["title"], "Hello");
        assert_eq!(content["blogPost"]["_contentInfo"]["id"], id);
        assert_eq!(
            content["_types"]["blogPost"],
            json!({"_info": {"identifier": "blog_post"}, "title": {"identifier": "title"}})
        );
    }
    // The identifier GraphQL cannot name is left out of the schema, the rest served.
    let sdl = cairn::graphql::sdl(&app.service).await.unwrap();
    assert!(sdl.contains("type BlogPostItem implements Item & Node"));
    assert!(!sdl.contains("Blog-post"));
    // An item asked as another type is refused, naming the type.
    let message = error_of(
        &app,
        &format!("{{ content {{ folder(contentId: {id}) {{ name }} }} }}"),
    )
    .await;
    assert!(message.contains("'folder'"), "{message}");
}

/// `html5` as the reference's output converters give it: links to content and Locations made
/// their URL alias paths (the fragment kept), plain text for a target that is gone or that the
/// caller may not read (`#`, which the output stylesheet renders as its text); the targets of
/// a page's documents loaded together.
#[tokio::test]
async fn rich_text_html5_links_are_url_aliases() {
    let app = TestApp::with_args(&["--cache-mib", "0"]).await;
    let (target, target_location) = published_folder(&app, "Linked target", "1/2").await;
    let target_location = last_id(&target_location);
    let (doomed, doomed_location) = published_folder(&app, "Doomed", "1/2").await;
    let doomed_location = last_id(&doomed_location);
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><section xmlns=\"http://docbook.org/ns/docbook\" \
         xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"5.0-variant ezpublish-1.0\"><para>\
         <link xlink:href=\"ezlocation://{target_location}#part\">a</link> \
         <link xlink:href=\"ezcontent://{target}\" xlink:show=\"new\">b</link> \
         <link xlink:href=\"ezlocation://5\">users</link> \
         <link xlink:href=\"ezlocation://{doomed_location}\">gone</link> \
         <link xlink:href=\"ezcontent://{doomed}#x\">gone too</link> \
         <link xlink:href=\"https://example.com/?a=1&amp;b=2\">out</link> \
         <link xlink:href=\"#top\">up</link></para></section>"
    );
    let mut ids = Vec::new();
    for name in ["First", "Second", "Third"] {
        // Each document links a target of its own too.
        let own = last_id(
            &published_folder(&app, &format!("{name} own"), "1/2")
                .await
                .1,
        );
        let own = format!("<link xlink:href=\"ezlocation://{own}\">own</link></para>");
        let body = body.replace("</para>", &own);
        let c = create_content(
            &app,
            json!({"ContentType": {"_href": format!("{PREFIX}/content/types/2")},
                   "mainLanguageCode": "eng-GB",
                   "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2")}},
                   "Section": {"_href": format!("{PREFIX}/content/sections/1")},
                   "fields": {"field": [
                       {"fieldDefinitionIdentifier": "title", "languageCode": "eng-GB", "fieldValue": name},
                       {"fieldDefinitionIdentifier": "intro", "languageCode": "eng-GB", "fieldValue": {"xml": body}}]}}),
        )
        .await;
        let id = c["_id"].as_i64().unwrap();
        app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
            .admin()
            .send()
            .await
            .assert(204);
        ids.push(id);
    }
    // The links' targets may go after the documents were written.
    app.req("DELETE", &format!("/content/objects/{doomed}"))
        .admin()
        .send()
        .await
        .assert(204);
    let html_of = |v: &Value| v["intro"]["html5"].as_str().unwrap().to_string();
    let one = format!(
        "{{ content {{ article(contentId: {}) {{ intro {{ html5 }} }} }} }}",
        ids[0]
    );
    let html = html_of(&gql(&app, &one).await["content"]["article"]);
    assert!(
        html.contains("xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5\""),
        "{html}"
    );
    for expected in [
        "<a href=\"/Linked-target#part\">a</a>",
        "<a href=\"/Linked-target\" target=\"_blank\">b</a>",
        "<a href=\"/Users\">users</a>",
        "</a> gone gone too <a",
        "<a href=\"https://example.com/?a=1&amp;b=2\">out</a>",
        "<a href=\"#top\">up</a>",
    ] {
        assert!(html.contains(expected), "{expected} in {html}");
    }
    // Anonymous may not read the users' Location: its link is `#`.
    let v = gql_as(&app, None, &one, Value::Null).await;
    let html = html_of(&v["data"]["content"]["article"]);
    assert!(html.contains("</a> users gone gone too <a"), "{html}");
    assert!(
        html.contains("<a href=\"/Linked-target#part\">a</a>"),
        "{html}"
    );
    // One document or three: the same statements.
    let mut costs = Vec::new();
    for n in [1, 3] {
        let query = format!(
            "{{ content {{ articles(first: {n}) {{ edges {{ node {{ intro {{ html5 }} }} }} }} }} }}"
        );
        let (cost, v) = statements_of(&app, &query).await;
        costs.push(cost);
        let edges = v["content"]["articles"]["edges"].as_array().unwrap();
        assert_eq!(edges.len(), n);
        for e in edges {
            let html = html_of(&e["node"]);
            assert!(html.contains("/Linked-target#part"), "{html}");
            assert!(html.contains("-own\">own</a>"), "{html}");
        }
    }
    assert_eq!(costs[0], costs[1], "statements of 1 and of 3 documents");
}

#[tokio::test]
async fn items_by_every_key_and_their_field_values() {
    let app = TestApp::new().await;
    let c = create_content(
        &app,
        json!({"ContentType": {"_href": format!("{PREFIX}/content/types/2")},
               "mainLanguageCode": "eng-GB",
               "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2")}},
               "Section": {"_href": format!("{PREFIX}/content/sections/1")},
               "fields": {"field": [
                   {"fieldDefinitionIdentifier": "title", "languageCode": "eng-GB", "fieldValue": "An article"},
                   {"fieldDefinitionIdentifier": "intro", "languageCode": "eng-GB", "fieldValue": {"xml":
                       "<?xml version=\"1.0\" encoding=\"UTF-8\"?><section xmlns=\"http://docbook.org/ns/docbook\" version=\"5.0-variant ezpublish-1.0\"><para>Hello <emphasis>world</emphasis></para></section>"}},
                   {"fieldDefinitionIdentifier": "enable_comments", "languageCode": "eng-GB", "fieldValue": true},
                   {"fieldDefinitionIdentifier": "author", "languageCode": "eng-GB", "fieldValue": [{"id": 1, "name": "Pat", "email": "pat@example.com"}]}]}}),
    )
    .await;
    let id = c["_id"].as_i64().unwrap();
    let remote = c["_remoteId"].as_str().unwrap().to_string();
    // A relation of the draft to a folder, published with it.
    let related = folder(&app, "1/2", "Related").await;
    app.req(
        "POST",
        &format!("/content/objects/{id}/versions/1/relations"),
    )
    .admin()
    .json_body(
        "RelationCreate",
        json!({"Destination": {"_href": format!("{PREFIX}/content/objects/{related}")}}),
    )
    .send()
    .await
    .assert(201);
    app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await
        .assert(204);
    let info = (app.get(&format!("/content/objects/{id}")).admin())
        .accept("ContentInfo+json")
        .send()
        .await
        .json();
    let location = last_id(info["Content"]["MainLocation"]["_href"].as_str().unwrap());
    let fields = "title intro { plaintext xml html5 } enableComments author { name email } \
                  _name _url _location { id } _contentInfo { publishedDate { format(pattern: \"Y\") } } id";
    let mut seen = Vec::new();
    for key in [
        format!("contentId: {id}"),
        format!("remoteId: \"{remote}\""),
        format!("locationId: {location}"),
        "urlAlias: \"/An-article\"".to_string(),
    ] {
        let v = gql(
            &app,
            &format!("{{ content {{ article({key}) {{ {fields} }} }} }}"),
        )
        .await;
        seen.push(v["content"]["article"].clone());
    }
    assert!(seen.iter().all(|s| *s == seen[0]), "{seen:?}");
    let a = &seen[0];
    assert_eq!(a["title"], "An article");
    assert_eq!(a["_name"], "An article");
    assert_eq!(a["_url"], "/An-article");
    assert_eq!(a["_location"]["id"], location);
    assert_eq!(a["intro"]["plaintext"], "Hello world");
    assert!(
        a["intro"]["xml"]
            .as_str()
            .unwrap()
            .contains("<emphasis>world</emphasis>")
    );
    assert!(a["intro"]["html5"].as_str().unwrap().contains("world"));
    assert_eq!(a["enableComments"], true);
    assert_eq!(
        a["author"],
        json!([{"name": "Pat", "email": "pat@example.com"}])
    );
    let year = a["_contentInfo"]["publishedDate"]["format"]
        .as_str()
        .unwrap();
    assert_eq!(year.len(), 4);
    // Its content info's relations, states, type's groups, owner's groups.
    let v = gql(
        &app,
        &format!(
            "{{ content {{ article(contentId: {id}) {{ _contentInfo {{ relations {{ type sourceFieldDefinitionIdentifier destinationContent {{ _name }} }} states {{ identifier group {{ identifier }} }} contentType {{ groups {{ identifier }} }} owner {{ groups {{ name content {{ _name }} parentGroup {{ name }} subGroups {{ name }} users {{ name }} }} }} versions {{ versionNumber status }} }} }} }} }}"
        ),
    )
    .await;
    let info = &v["content"]["article"]["_contentInfo"];
    assert_eq!(
        info["relations"],
        json!([{"type": "common", "sourceFieldDefinitionIdentifier": null, "destinationContent": {"_name": "Related"}}])
    );
    // The folder's reverse relations name the article, as the reference's
    // loadReverseRelations; anonymous callers may not list them (content/reverserelatedlist).
    let reverse = format!(
        "{{ content {{ folder(contentId: {related}) {{ _contentInfo {{ reverseRelations {{ type sourceContent {{ _name }} destinationContent {{ _name }} }} }} }} }} }}"
    );
    let v = gql(&app, &reverse).await;
    assert_eq!(
        v["content"]["folder"]["_contentInfo"]["reverseRelations"],
        json!([{"type": "common", "sourceContent": {"_name": "An article"}, "destinationContent": {"_name": "Related"}}])
    );
    let v = gql_as(&app, None, &reverse, Value::Null).await;
    let message = v["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("reverserelatedlist"), "{v}");
    assert_eq!(
        v["content"]["folder"]["_contentInfo"]["reverseRelations"],
        Value::Null
    );
    assert_eq!(
        info["states"],
        json!([{"identifier": "not_locked", "group": {"identifier": "ez_lock"}}])
    );
    assert_eq!(
        info["contentType"]["groups"],
        json!([{"identifier": "Content"}])
    );
    assert_eq!(
        info["owner"]["groups"],
        json!([{"name": "Administrator users", "content": {"_name": "Administrator users"},
                "parentGroup": {"name": "Users"}, "subGroups": [],
                "users": [{"name": "Administrator User"}]}])
    );
    assert_eq!(info["versions"], json!([{"versionNumber": 1, "status": 1}]));
    // The global id names the item too, through `item` and `node`.
    let gid = a["id"].as_str().unwrap();
    let v = gql(
        &app,
        &format!(
            "{{ item(contentId: {id}) {{ _name ... on ArticleItem {{ title }} }} node(id: \"{gid}\") {{ ... on ArticleItem {{ title }} }} }}"
        ),
    )
    .await;
    assert_eq!(
        v["item"],
        json!({"_name": "An article", "title": "An article"})
    );
    assert_eq!(v["node"], json!({"title": "An article"}));
    // Through variables, with a language of the enum, or its code as the reference's
    // clients give it (its enum values are the codes, which only variables can hold).
    for l in ["eng_GB", "eng-GB"] {
        let v = gql_as(
            &app,
            Some(ADMIN),
            "query A($id: Int, $l: RepositoryLanguage) { content { article(contentId: $id) { title(language: $l) } } }",
            json!({"id": id, "l": l}),
        )
        .await;
        assert_eq!(
            v["data"]["content"]["article"]["title"], "An article",
            "{l}: {v}"
        );
    }
    let v = gql_as(
        &app,
        Some(ADMIN),
        "query A($id: Int, $l: RepositoryLanguage) { content { article(contentId: $id) { title(language: $l) } } }",
        json!({"id": id, "l": "xxx-YY"}),
    )
    .await;
    assert!(v["errors"][0]["message"].is_string(), "{v}");
    // The repository's own types.
    let v = gql(
        &app,
        "{ _repository { contentType(identifier: \"article\") { id identifier name isContainer fieldDefinitions { identifier fieldTypeIdentifier } }
             objectStateGroups { identifier states { identifier } } } }",
    )
    .await;
    let t = &v["_repository"]["contentType"];
    assert_eq!(t["id"], 2);
    assert_eq!(t["name"], "Article");
    assert!(
        t["fieldDefinitions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["identifier"] == "intro" && f["fieldTypeIdentifier"] == "ezrichtext")
    );
    assert_eq!(
        v["_repository"]["objectStateGroups"][0],
        json!({"identifier": "ez_lock", "states": [{"identifier": "not_locked"}, {"identifier": "locked"}]})
    );
}

#[tokio::test]
async fn callers_read_and_count_only_what_they_may() {
    let app = TestApp::new().await;
    let media = folder(&app, "1/43", "In media").await;
    folder(&app, "1/2", "In content").await;
    let user = plain_user(&app, "mediareader").await;
    role_for(
        &app,
        user,
        "Media reader",
        &[json!(["content", "read", [["Subtree", ["/1/43/"]]]])],
        None,
    )
    .await;
    let count = "{ content { folders { totalCount edges { node { _name } } } } }";
    let admin_count = gql(&app, count).await["content"]["folders"]["totalCount"]
        .as_i64()
        .unwrap();
    let v = gql_as(&app, Some(("mediareader", PW)), count, Value::Null).await;
    let folders = &v["data"]["content"]["folders"];
    assert!(admin_count > folders["totalCount"].as_i64().unwrap());
    let names: Vec<&str> = folders["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node"]["_name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"In media") && !names.contains(&"In content"),
        "{names:?}"
    );
    // An item it may not read is an error, not a value.
    let root = "{ _repository { location(locationId: 2) { id children { totalCount } } } }";
    let v = gql_as(&app, Some(("mediareader", PW)), root, Value::Null).await;
    assert_eq!(v["data"]["_repository"]["location"], Value::Null, "{v}");
    let v = gql_as(
        &app,
        Some(("mediareader", PW)),
        &format!("{{ content {{ folder(contentId: {media}) {{ name }} }} }}"),
        Value::Null,
    )
    .await;
    assert_eq!(v["data"]["content"]["folder"]["name"], "In media");
    // Anonymous callers read with the Anonymous Role's rights (the clean install's: the
    // content of the Standard Section and Media).
    let v = gql_as(&app, None, count, Value::Null).await;
    assert!(v.get("errors").is_none(), "{v}");
    assert!(
        v["data"]["content"]["folders"]["totalCount"]
            .as_i64()
            .unwrap()
            <= admin_count
    );
    // Bad credentials are refused, as REST refuses them.
    let r = app
        .abs("POST", "/graphql")
        .basic("admin", "wrong")
        .raw_body("application/graphql", "{ item(contentId: 1) { _name } }")
        .send()
        .await;
    assert_eq!(r.status.as_u16(), 401);
}

#[tokio::test]
async fn requests_in_every_form_and_their_errors() {
    let app = TestApp::new().await;
    let q = "{ _repository { location(locationId: 2) { id } } }";
    let expected = json!({"data": {"_repository": {"location": {"id": 2}}}});
    // GET with the query in the query string, a form, application/graphql.
    let get = format!(
        "/graphql?query={}",
        percent_encoding::utf8_percent_encode(q, percent_encoding::NON_ALPHANUMERIC)
    );
    let r = app.abs("GET", &get).admin().send().await;
    r.assert(200);
    assert_eq!(r.json(), expected);
    let form = format!(
        "query={}",
        percent_encoding::utf8_percent_encode(q, percent_encoding::NON_ALPHANUMERIC)
    );
    let r = (app.abs("POST", "/graphql").admin())
        .raw_body("application/x-www-form-urlencoded", &form)
        .send()
        .await;
    assert_eq!(r.json(), expected);
    let r = (app.abs("POST", "/graphql").admin())
        .raw_body("application/graphql", q)
        .send()
        .await;
    assert_eq!(r.json(), expected);
    // OPTIONS tells what it takes.
    let r = app.abs("OPTIONS", "/graphql").send().await;
    assert_eq!(r.status.as_u16(), 204);
    assert_eq!(r.header("allow").unwrap(), "GET, POST, OPTIONS");
    // What is no GraphQL request is a 4xx with its reason.
    for (media, body, status) in [
        ("application/json", "{", 400),
        ("application/json", "{\"query\": \"\"}", 400),
        (
            "application/json",
            "{\"query\": \"{ item }\", \"variables\": \"[\"}",
            400,
        ),
        ("text/plain", "{ item }", 415),
    ] {
        let r = (app.abs("POST", "/graphql").admin())
            .raw_body(media, body)
            .send()
            .await;
        assert_eq!(r.status.as_u16(), status, "{media} {body}");
        assert!(r.json()["errors"][0]["message"].as_str().unwrap().len() > 5);
    }
    let r = app.abs("PUT", "/graphql").admin().send().await;
    assert_eq!(r.status.as_u16(), 405);
    // A query past the limits is refused before it runs, saying why.
    let mut deep = String::from("_name");
    for _ in 0..8 {
        deep = format!("_location {{ contentInfo {{ mainLocation {{ {deep} }} }} }}");
    }
    let m = error_of(&app, &format!("{{ item(contentId: 1) {{ {deep} }} }}")).await;
    assert!(m.contains("nested too deep"), "{m}");
    let m = error_of(&app, "{ content { folders(first: 5000) { totalCount } } }").await;
    assert!(m.contains("first"), "{m}");
    // List arguments are bounded in length.
    let sort = vec!["_name"; 21].join(", ");
    let m = error_of(
        &app,
        &format!("{{ content {{ folders(sortBy: [{sort}]) {{ totalCount }} }} }}"),
    )
    .await;
    assert!(m.contains("at most 20"), "{m}");
    // A syntax error is GraphQL's own answer, with where it is.
    let v = gql_as(&app, Some(ADMIN), "{ item(", Value::Null).await;
    assert!(v["errors"][0]["locations"].is_array(), "{v}");
}

#[tokio::test]
async fn mutations_write_through_the_same_rules_as_rest() {
    let app = TestApp::new().await;
    let create = "mutation { createFolder(input: {name: \"Made\", shortName: \"M\"}, language: eng_GB, parentLocationId: 2) { _name name shortName _contentInfo { id currentVersionNo } _location { pathString } } }";
    let v = gql(&app, create).await;
    let made = &v["createFolder"];
    // The name schema's (`<short_name|name>`).
    assert_eq!(made["_name"], "M");
    assert_eq!(made["name"], "Made");
    assert_eq!(made["shortName"], "M");
    assert_eq!(made["_contentInfo"]["currentVersionNo"], 1);
    let id = made["_contentInfo"]["id"].as_i64().unwrap();
    let path = made["_location"]["pathString"].as_str().unwrap();
    assert!(path.starts_with("/1/2/"), "{path}");
    // Published: REST reads it.
    app.get(&format!("/content/objects/{id}"))
        .admin()
        .send()
        .await
        .assert(200);
    // Updated: a new version, published.
    let update = format!(
        "mutation {{ updateFolder(contentId: {id}, input: {{name: \"Renamed\"}}, language: eng_GB) {{ name _contentInfo {{ currentVersionNo }} }} }}"
    );
    let v = gql(&app, &update).await;
    assert_eq!(
        v["updateFolder"],
        json!({"name": "Renamed", "_contentInfo": {"currentVersionNo": 2}})
    );
    // Rich text in Markdown and in HTML, converted to DocBook as the reference converts them.
    let rich = format!(
        "mutation($text: String!, $format: RichTextFieldInputFormat) {{ updateFolder(contentId: {id}, input: {{description: {{format: $format, input: $text}}}}, language: eng_GB) {{ description {{ xml plaintext }} }} }}"
    );
    for (format, text, expected) in [
        (
            "markdown",
            "# Title\n\nSome **bold** text and a [link](https://example.com/).\n\n- one\n- two\n",
            "<para>Some <emphasis role=\"strong\">bold</emphasis> text and a <link xlink:href=\"https://example.com/\" xlink:show=\"none\">link</link>.</para>",
        ),
        (
            "html",
            "<p>An <em>HTML</em> paragraph</p>",
            "<para>An <emphasis>HTML</emphasis> paragraph</para>",
        ),
    ] {
        let v = gql_as(
            &app,
            Some(ADMIN),
            &rich,
            json!({"text": text, "format": format}),
        )
        .await;
        let xml = v["data"]["updateFolder"]["description"]["xml"]
            .as_str()
            .unwrap_or_else(|| panic!("{format}: {v}"));
        assert!(xml.contains(expected), "{format}: {xml}");
        if format == "markdown" {
            assert!(
                xml.contains("<title ezxhtml:level=\"1\">Title</title>"),
                "{xml}"
            );
            assert!(
                xml.contains("<itemizedlist><listitem><para>one</para></listitem>"),
                "{xml}"
            );
        }
        // It is REST's value too.
        let r = (app.get(&format!("/content/objects/{id}")).admin())
            .accept("Content+json")
            .send()
            .await;
        let description = field_of(&r.json()["Content"], "description")["fieldValue"]["xml"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(description.contains(expected), "{description}");
    }
    let v = gql_as(
        &app,
        Some(ADMIN),
        &rich,
        json!({"text": "<p>not closed", "format": "html"}),
    )
    .await;
    let m = v["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(m.contains("cannot be converted"), "{v}");
    // A value the field type refuses is REST's error, and leaves no draft behind.
    let versions = async || {
        let r = app
            .get(&format!("/content/objects/{id}/versions"))
            .admin()
            .accept("VersionList+json")
            .send()
            .await;
        r.json()["VersionList"]["VersionItem"]
            .as_array()
            .unwrap()
            .len()
    };
    let before = versions().await;
    let bad = format!(
        "mutation {{ updateFolder(contentId: {id}, input: {{name: \"\"}}, language: eng_GB) {{ name }} }}"
    );
    let v = gql_as(&app, Some(ADMIN), &bad, Value::Null).await;
    assert!(v["errors"][0]["message"].is_string(), "{v}");
    assert_eq!(
        versions().await,
        before,
        "the failed update's draft is gone"
    );
    // Anonymous callers may not write; a mutation over GET is refused.
    let v = gql_as(&app, None, create, Value::Null).await;
    let m = v["errors"][0]["message"].as_str().unwrap();
    assert!(m.contains("anonymous"), "{m}");
    let get = format!(
        "/graphql?query={}",
        percent_encoding::utf8_percent_encode(create, percent_encoding::NON_ALPHANUMERIC)
    );
    let r = app.abs("GET", &get).admin().send().await;
    assert_eq!(r.status.as_u16(), 405);
    // A token, and a refused login as the payload's message.
    let v = gql_as(
        &app,
        None,
        "mutation { createToken(username: \"admin\", password: \"publish\") { token message } }",
        Value::Null,
    )
    .await;
    let token = v["data"]["createToken"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let r = (app.abs("POST", "/graphql").bearer(&token))
        .raw_body(
            "application/graphql",
            &format!("{{ item(contentId: {id}) {{ ... on FolderItem {{ name }} }} }}"),
        )
        .send()
        .await;
    assert_eq!(r.json()["data"]["item"]["name"], "Renamed");
    let v = gql_as(
        &app,
        None,
        "mutation { createToken(username: \"admin\", password: \"nope\") { token message } }",
        Value::Null,
    )
    .await;
    assert_eq!(v["data"]["createToken"]["token"], Value::Null);
    assert!(v["data"]["createToken"]["message"].is_string());
    // Deleted.
    let v = gql(
        &app,
        &format!("mutation {{ deleteContent(contentId: {id}) {{ contentId id }} }}"),
    )
    .await;
    assert_eq!(v["deleteContent"]["contentId"], id);
    app.get(&format!("/content/objects/{id}"))
        .admin()
        .send()
        .await
        .assert(404);
}

/// The fields of the type `name` in `sdl`, each as its line (`name(args): Type`).
fn fields_of(sdl: &str, name: &str) -> Vec<String> {
    let start = sdl
        .find(&format!("type {name} "))
        .unwrap_or_else(|| panic!("no type {name}"));
    let body = &sdl[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
    let mut lines: Vec<String> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

/// The reference's generated schema for the same content types (Ibexa DXP 4.6, as a site's
/// `config/graphql/types/ibexa/*.types.yaml` hold it; here in SDL): the image type with the
/// keyword field `tags` that 4.x adds to it, the Content group's article and folder, the
/// mutations of an article.
#[tokio::test]
async fn the_schema_matches_the_one_the_reference_generates_for_the_same_types() {
    let app = TestApp::new().await;
    // The image content type with `tags`, as 4.x installs it.
    app.req("POST", "/content/types/5")
        .admin()
        .json_body("ContentTypeUpdate", json!({}))
        .send()
        .await
        .assert(201);
    app.req("POST", "/content/types/5/draft/fieldDefinitions")
        .admin()
        .json_body(
            "FieldDefinitionCreate",
            json!({"identifier": "tags", "fieldType": "ezkeyword", "fieldGroup": "content",
                   "position": 4, "isTranslatable": true, "isRequired": false, "isSearchable": true,
                   "names": {"value": [{"_languageCode": "eng-GB", "#text": "Tags"}]}}),
        )
        .send()
        .await
        .assert(201);
    app.req("PUBLISH", "/content/types/5/draft")
        .admin()
        .send()
        .await
        .assert(200);
    let sdl = cairn::graphql::sdl(&app.service).await.unwrap();
    let item_fields = [
        "_allLocations: [Location]",
        "_contentInfo: Content",
        "_location: Location",
        "_name: String",
        "_thumbnail: Thumbnail",
        "_type: ContentType",
        "_url: String",
        "id: ID!",
    ];
    let mut image: Vec<String> = item_fields.iter().map(|s| s.to_string()).collect();
    image.extend(
        [
            "name(language: RepositoryLanguage): String",
            "caption(language: RepositoryLanguage): RichTextFieldValue",
            "image(language: RepositoryLanguage): ImageFieldValue",
            "tags(language: RepositoryLanguage): [String]",
        ]
        .map(String::from),
    );
    image.sort();
    assert_eq!(fields_of(&sdl, "ImageItem"), image);
    assert!(sdl.contains("type ImageItem implements Item & Node {"));
    // The Content group: a connection and an item per type, with the reference's arguments.
    let group = fields_of(&sdl, "ItemGroupContent");
    for line in [
        "_info: ContentTypeGroup",
        "_types: ItemGroupContentTypes",
        "articles(after: String, first: Int, before: String, last: Int, query: ContentSearchQuery, sortBy: [SortByOptions]): ArticleItemConnection",
        "article(contentId: Int, remoteId: String, locationId: Int, locationRemoteId: String, urlAlias: String): ArticleItem",
        "folders(after: String, first: Int, before: String, last: Int, query: ContentSearchQuery, sortBy: [SortByOptions]): FolderItemConnection",
        "folder(contentId: Int, remoteId: String, locationId: Int, locationRemoteId: String, urlAlias: String): FolderItem",
    ] {
        assert!(group.contains(&line.to_string()), "{line} not in {group:?}");
    }
    assert_eq!(
        fields_of(&sdl, "ItemGroupContentTypes"),
        ["article: ArticleItemType", "folder: FolderItemType"]
    );
    let domain = fields_of(&sdl, "Domain");
    for line in [
        "_repository: Repository",
        "content: ItemGroupContent",
        "media: ItemGroupMedia",
        "users: ItemGroupUsers",
        "item(contentId: Int, remoteId: String, locationId: Int, locationRemoteId: String, urlAlias: String): Item",
    ] {
        assert!(
            domain.contains(&line.to_string()),
            "{line} not in {domain:?}"
        );
    }
    let mutation = fields_of(&sdl, "ItemMutation");
    for line in [
        "createArticle(input: ArticleItemCreateInput!, language: RepositoryLanguage!, parentLocationId: Int!): ArticleItem!",
        "updateArticle(input: ArticleItemUpdateInput!, language: RepositoryLanguage!, id: ID, contentId: Int, versionNo: Int): ArticleItem!",
        "createFolder(input: FolderItemCreateInput!, language: RepositoryLanguage!, parentLocationId: Int!): FolderItem!",
        "deleteContent(id: ID, contentId: Int): DeleteContentPayload",
        "createToken(username: String!, password: String!): CreatedTokenPayload",
    ] {
        assert!(
            mutation.contains(&line.to_string()),
            "{line} not in {mutation:?}"
        );
    }
    for value in ["article", "folder", "image", "user", "user_group"] {
        let enum_start = sdl.find("enum ContentTypeIdentifier {").unwrap();
        let body = &sdl[enum_start..enum_start + sdl[enum_start..].find('}').unwrap()];
        assert!(body.lines().any(|l| l.trim() == value), "{value} in {body}");
    }
    // The schema parses and runs: the new field answers.
    let v = gql(&app, "{ media { images(first: 1) { totalCount } } }").await;
    assert!(v["media"]["images"]["totalCount"].is_number());
}

#[tokio::test]
async fn answers_are_kept_until_the_next_change() {
    let app = TestApp::new().await;
    let id = folder(&app, "1/2", "Kept").await;
    let query = format!("{{ content {{ folder(contentId: {id}) {{ name }} }} }}");
    let first = app.statements();
    assert_eq!(gql(&app, &query).await["content"]["folder"]["name"], "Kept");
    let second = app.statements();
    assert_eq!(gql(&app, &query).await["content"]["folder"]["name"], "Kept");
    let third = app.statements();
    assert!(
        third - second < second - first,
        "kept: {} statements, against {}",
        third - second,
        second - first
    );
    // Another caller's answer is its own.
    let v = gql_as(&app, None, &query, Value::Null).await;
    assert!(v.get("errors").is_some() || v["data"]["content"]["folder"]["name"] == "Kept");
    // A change through REST is seen at once.
    publish_name(&app, id, "Changed").await;
    assert_eq!(
        gql(&app, &query).await["content"]["folder"]["name"],
        "Changed"
    );
}

/// Every field type's value, as the reference's field value types give it.
#[tokio::test]
async fn every_field_types_value() {
    use base64::Engine;
    let app = TestApp::new().await;
    let related = folder(&app, "1/2", "Related").await;
    let def = |identifier: &str, field_type: &str, position: i64| {
        json!({"identifier": identifier, "fieldType": field_type, "fieldGroup": "content",
               "position": position, "isTranslatable": true, "isRequired": false, "isSearchable": true,
               "names": {"value": [{"_languageCode": "eng-GB", "#text": identifier}]}})
    };
    let mut definitions = Vec::new();
    for (i, (identifier, field_type)) in [
        ("f_string", "ezstring"),
        ("f_text", "eztext"),
        ("f_integer", "ezinteger"),
        ("f_float", "ezfloat"),
        ("f_boolean", "ezboolean"),
        ("f_email", "ezemail"),
        ("f_url", "ezurl"),
        ("f_date", "ezdate"),
        ("f_datetime", "ezdatetime"),
        ("f_time", "eztime"),
        ("f_keyword", "ezkeyword"),
        ("f_country", "ezcountry"),
        ("f_selection", "ezselection"),
        ("f_map", "ezgmaplocation"),
        ("f_author", "ezauthor"),
        ("f_isbn", "ezisbn"),
        ("f_relations", "ezobjectrelationlist"),
        ("f_image", "ezimage"),
        ("f_file", "ezbinaryfile"),
        ("f_matrix", "ezmatrix"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut d = def(identifier, field_type, i as i64 + 1);
        if field_type == "ezselection" {
            d["fieldSettings"] = json!({"isMultiple": true, "options": ["Zero", "One", "Two"]});
        }
        if field_type == "ezmatrix" {
            d["fieldSettings"] = json!({"minimum_rows": 1, "columns": [
                {"identifier": "city", "name": "City"}, {"identifier": "population", "name": "Population"}]});
        }
        definitions.push(d);
    }
    let create = json!({"identifier": "everything", "mainLanguageCode": "eng-GB",
        "names": {"value": [{"_languageCode": "eng-GB", "#text": "Everything"}]},
        "nameSchema": "<f_string>",
        "FieldDefinitions": {"FieldDefinition": definitions}});
    let r = app
        .req("POST", "/content/typegroups/1/types?publish=true")
        .admin()
        .json_body("ContentTypeCreate", create)
        .accept("ContentType+json")
        .send()
        .await;
    r.assert(201);
    let ty = r.json()["ContentType"]["id"].as_i64().unwrap();
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    let value = |identifier: &str, v: Value| json!({"fieldDefinitionIdentifier": identifier, "languageCode": "eng-GB", "fieldValue": v});
    let c = create_content(
        &app,
        json!({"ContentType": {"_href": format!("{PREFIX}/content/types/{ty}")},
               "mainLanguageCode": "eng-GB",
               "LocationCreate": {"ParentLocation": {"_href": format!("{PREFIX}/content/locations/1/2")}},
               "fields": {"field": [
                   value("f_string", json!("A line")),
                   value("f_text", json!("Some\ntext")),
                   value("f_integer", json!(42)),
                   value("f_float", json!(1.5)),
                   value("f_boolean", json!(true)),
                   value("f_email", json!("pat@example.com")),
                   value("f_url", json!({"link": "https://example.com/", "text": "Example"})),
                   value("f_date", json!({"timestamp": 1_350_864_000})),
                   value("f_datetime", json!({"timestamp": 1_350_900_000})),
                   value("f_time", json!(3_661)),
                   value("f_keyword", json!(["red", "blue"])),
                   value("f_country", json!(["NO"])),
                   value("f_selection", json!([0, 2])),
                   value("f_map", json!({"latitude": 59.91, "longitude": 10.75, "address": "Oslo"})),
                   value("f_author", json!([{"id": 1, "name": "Pat", "email": "pat@example.com"}])),
                   value("f_isbn", json!("978-3-16-148410-0")),
                   value("f_relations", json!({"destinationContentIds": [related]})),
                   value("f_image", json!({"fileName": "dot.png", "data": b64(&crate::images::png(3, 2)), "alternativeText": "A dot"})),
                   value("f_file", json!({"fileName": "hello.txt", "data": b64(b"hello")})),
                   value("f_matrix", json!({"entries": [{"city": "Oslo", "population": "700000"}, {"city": "Bergen"}]})),
               ]}}),
    )
    .await;
    let id = c["_id"].as_i64().unwrap();
    app.req("PUBLISH", &format!("/content/objects/{id}/versions/1"))
        .admin()
        .send()
        .await
        .assert(204);
    let v = gql(
        &app,
        &format!(
            "{{ content {{ everything(contentId: {id}) {{
                fString fText fInteger fFloat fBoolean fEmail fUrl
                fDate {{ timestamp format(pattern: \"Y-m-d\") }} fDatetime {{ timestamp format(constant: atom) }}
                fTime fKeyword fCountry fSelection
                fMap {{ latitude longitude address }} fAuthor {{ id name email }} fIsbn
                fRelations {{ _name ... on FolderItem {{ name }} }}
                fImage {{ fileName alternativeText width height fileSize uri variation(identifier: small) {{ width height uri lastModified {{ timestamp }} }} }}
                fFile {{ fileName fileSize mimeType uri }} fMatrix {{ city population }} }} }} }}"
        ),
    )
    .await;
    let e = &v["content"]["everything"];
    assert_eq!(e["fString"], "A line");
    assert_eq!(e["fText"], "Some\ntext");
    assert_eq!(e["fInteger"], 42);
    assert_eq!(e["fFloat"], 1.5);
    assert_eq!(e["fBoolean"], true);
    assert_eq!(e["fEmail"], "pat@example.com");
    assert_eq!(e["fUrl"], "https://example.com/");
    assert_eq!(
        e["fDate"],
        json!({"timestamp": 1_350_864_000, "format": "2012-10-22"})
    );
    assert_eq!(e["fDatetime"]["format"], "2012-10-22T10:00:00+00:00");
    assert_eq!(e["fTime"], "01:01:01");
    assert_eq!(e["fKeyword"], json!(["red", "blue"]));
    assert_eq!(e["fCountry"], "Norway");
    assert_eq!(e["fSelection"], json!(["Zero", "Two"]));
    assert_eq!(e["fMap"]["address"], "Oslo");
    assert!(e["fMap"]["latitude"].as_str().unwrap().starts_with("59.91"));
    assert_eq!(
        e["fAuthor"],
        json!([{"id": 1, "name": "Pat", "email": "pat@example.com"}])
    );
    assert_eq!(e["fIsbn"], "978-3-16-148410-0");
    assert_eq!(
        e["fRelations"],
        json!([{"_name": "Related", "name": "Related"}])
    );
    let image = &e["fImage"];
    assert_eq!(image["fileName"], "dot.png");
    assert_eq!(image["alternativeText"], "A dot");
    assert_eq!(
        (image["width"].clone(), image["height"].clone()),
        (json!(3), json!(2))
    );
    assert!(image["uri"].as_str().unwrap().ends_with("dot.png"));
    assert_eq!(image["variation"]["width"], 3, "scaled down only");
    // When the kept file was written.
    let written = image["variation"]["lastModified"]["timestamp"].as_i64();
    assert!(written.is_some_and(|t| t > 1_700_000_000), "{image}");
    assert!(
        image["variation"]["uri"]
            .as_str()
            .unwrap()
            .contains("small")
    );
    assert_eq!(
        (
            e["fFile"]["fileName"].clone(),
            e["fFile"]["fileSize"].clone()
        ),
        (json!("hello.txt"), json!(5))
    );
    assert!(e["fFile"]["uri"].is_string());
    // Matrix rows as the matrix bundle's `EverythingFMatrixRow`, an absent cell ''.
    assert_eq!(
        e["fMatrix"],
        json!([{"city": "Oslo", "population": "700000"}, {"city": "Bergen", "population": ""}])
    );
    let sdl = cairn::graphql::sdl(&app.service).await.unwrap();
    assert!(sdl.contains("fMatrix(language: RepositoryLanguage): [EverythingFMatrixRow]"));
    let row = sdl
        .split("type EverythingFMatrixRow {")
        .nth(1)
        .unwrap_or_default();
    assert!(
        row.trim_start()
            .starts_with("city: String\n\tpopulation: String\n}"),
        "{row}"
    );
    assert!(sdl.contains("fMatrix: [EverythingFMatrixRowInput]"));
    // Its definition's columns.
    let v = gql(
        &app,
        "{ content { _types { everything { fMatrix { settings { minimumRows columns { identifier name } } } } } } }",
    )
    .await;
    assert_eq!(
        v["content"]["_types"]["everything"]["fMatrix"]["settings"],
        json!({"minimumRows": 1, "columns": [{"identifier": "city", "name": "City"}, {"identifier": "population", "name": "Population"}]})
    );
    // Written by a mutation's rows.
    let v = gql(
        &app,
        &format!(
            "mutation {{ updateEverything(contentId: {id}, language: eng_GB, input: {{fMatrix: [{{city: \"Trondheim\", population: \"200000\"}}]}}) {{ fMatrix {{ city population }} }} }}"
        ),
    )
    .await;
    assert_eq!(
        v["updateEverything"]["fMatrix"],
        json!([{"city": "Trondheim", "population": "200000"}]),
        "{v}"
    );
}

/// The reference's names for tricky identifiers, its pluralizer's quirks included.
#[tokio::test]
async fn tricky_identifiers_are_named_as_the_reference_names_them() {
    let app = TestApp::new().await;
    for identifier in [
        "news",
        "category",
        "person",
        "analysis",
        "button",
        "landing_page",
    ] {
        let create = json!({"identifier": identifier, "mainLanguageCode": "eng-GB",
            "names": {"value": [{"_languageCode": "eng-GB", "#text": identifier}]},
            "nameSchema": "<title>",
            "FieldDefinitions": {"FieldDefinition": [
                {"identifier": "title", "fieldType": "ezstring", "fieldGroup": "content", "position": 1,
                 "isTranslatable": false, "isRequired": false, "isSearchable": true,
                 "names": {"value": [{"_languageCode": "eng-GB", "#text": "Title"}]}}]}});
        app.req("POST", "/content/typegroups/1/types?publish=true")
            .admin()
            .json_body("ContentTypeCreate", create)
            .send()
            .await
            .assert(201);
    }
    let sdl = cairn::graphql::sdl(&app.service).await.unwrap();
    let group = fields_of(&sdl, "ItemGroupContent");
    for (many, one, item) in [
        ("newses", "news", "NewsItem"),
        ("categories", "category", "CategoryItem"),
        ("persa", "person", "PersonItem"),
        ("analyses", "analysis", "AnalysisItem"),
        ("butta", "button", "ButtonItem"),
        ("landingPages", "landingPage", "LandingPageItem"),
    ] {
        assert!(
            group.iter().any(|l| l.starts_with(&format!("{many}("))
                && l.ends_with(&format!("): {item}Connection"))),
            "{many} in {group:?}"
        );
        assert!(
            group
                .iter()
                .any(|l| l.starts_with(&format!("{one}(")) && l.ends_with(&format!("): {item}"))),
            "{one} in {group:?}"
        );
        // Not translatable: no `language` argument.
        assert_eq!(
            fields_of(&sdl, item)
                .iter()
                .filter(|l| l.starts_with("title"))
                .collect::<Vec<_>>(),
            ["title: String"]
        );
    }
    let v = gql(
        &app,
        "{ content { persa { totalCount } newses { totalCount } } }",
    )
    .await;
    assert_eq!(v["content"]["persa"]["totalCount"], 0);
}

/// A multipart request (the GraphQL multipart request spec): `operations`, `map`, the files.
fn multipart(operations: Value, map: Value, files: &[(&str, &str, Vec<u8>)]) -> (String, Vec<u8>) {
    let boundary = "cairn-test-boundary";
    let mut body = Vec::new();
    let mut part = |head: String, content: &[u8]| {
        body.extend_from_slice(format!("--{boundary}\r\n{head}\r\n\r\n").as_bytes());
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    };
    part(
        "Content-Disposition: form-data; name=\"operations\"".into(),
        operations.to_string().as_bytes(),
    );
    part(
        "Content-Disposition: form-data; name=\"map\"".into(),
        map.to_string().as_bytes(),
    );
    for (i, (name, media, content)) in files.iter().enumerate() {
        part(
            format!(
                "Content-Disposition: form-data; name=\"{i}\"; filename=\"{name}\"\r\nContent-Type: {media}"
            ),
            content,
        );
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[tokio::test]
async fn files_are_uploaded_with_multipart_requests() {
    let app = TestApp::new().await;
    let png = crate::images::png(4, 3);
    let (media, body) = multipart(
        json!({"query": "mutation Up($files: [FileUpload]!) { uploadFiles(locationId: 43, files: $files, language: eng_GB) { files { _name _type { identifier } } warnings } }",
               "variables": {"files": [null, null]}}),
        json!({"0": ["variables.files.0"], "1": ["variables.files.1"]}),
        &[
            ("dot.png", "image/png", png.clone()),
            ("notes.txt", "text/plain", b"hello".to_vec()),
        ],
    );
    let r = (app.abs("POST", "/graphql").admin())
        .bytes_body(&media, body)
        .send()
        .await;
    r.assert(200);
    let v = r.json();
    assert!(v.get("errors").is_none(), "{v}");
    assert_eq!(
        v["data"]["uploadFiles"]["files"],
        json!([
            {"_name": "dot.png", "_type": {"identifier": "image"}},
            {"_name": "notes.txt", "_type": {"identifier": "file"}}
        ])
    );
    assert_eq!(v["data"]["uploadFiles"]["warnings"], json!([]));
    // A file field of a create mutation, with its alternative text.
    let (media, body) = multipart(
        json!({"query": "mutation New($file: FileUpload) { createImage(input: {name: \"Uploaded\", image: {alternativeText: \"Dots\", file: $file}}, language: eng_GB, parentLocationId: 43) { name image { fileName alternativeText width height } } }",
               "variables": {"file": null}}),
        json!({"0": ["variables.file"]}),
        &[("dots.png", "image/png", png)],
    );
    let r = (app.abs("POST", "/graphql").admin())
        .bytes_body(&media, body)
        .send()
        .await;
    let v = r.json();
    assert!(v.get("errors").is_none(), "{v}");
    assert_eq!(
        v["data"]["createImage"],
        json!({"name": "Uploaded", "image": {"fileName": "dots.png", "alternativeText": "Dots", "width": 4, "height": 3}})
    );
    // A file that is no image is refused by the image field, as REST refuses it.
    let (media, body) = multipart(
        json!({"query": "mutation New($file: FileUpload) { createImage(input: {name: \"Bad\", image: {file: $file}}, language: eng_GB, parentLocationId: 43) { name } }",
               "variables": {"file": null}}),
        json!({"0": ["variables.file"]}),
        &[("bad.png", "image/png", b"not an image".to_vec())],
    );
    let r = (app.abs("POST", "/graphql").admin())
        .bytes_body(&media, body)
        .send()
        .await;
    assert!(r.json()["errors"][0]["message"].is_string(), "{}", r.body);
}
