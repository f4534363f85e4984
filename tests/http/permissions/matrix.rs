//! Every limitation on every operation that performs its function (issue 48). For each row
//! of [`PAIRS`] (a limitation type, a function of the policy map that takes it, an operation
//! of cairn that performs that function), a user whose only Policy of that function carries
//! the limitation does the operation on an object the limitation allows, then on one that
//! differs only in what the limitation looks at: the first succeeds, the second is refused
//! with 401 and leaves the repository as it was (compared as the admin reads it). Rows where
//! the reference's limitation does not decide say so (`Both`). `docs/permissions.md` shows
//! the table; `the_documented_table_is_the_tested_one` keeps the two equal.

use super::*;

const GER: &str = "ger-DE";
const ENG: &str = "eng-GB";

/// What a row expects of its two objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The first is allowed, the second refused.
    Differs,
    /// Both are allowed: the limitation does not decide this operation (as in the reference).
    BothAllowed,
    /// Both are refused: the limitation never grants this operation (as in the reference).
    BothRefused,
}

/// A row of the table: the limitation, the function it limits, the operation.
struct Pair {
    limitation: &'static str,
    function: &'static str,
    operation: &'static str,
    expect: Expect,
}

const fn p(limitation: &'static str, function: &'static str, operation: &'static str) -> Pair {
    Pair {
        limitation,
        function,
        operation,
        expect: Expect::Differs,
    }
}

const fn both(
    limitation: &'static str,
    function: &'static str,
    operation: &'static str,
    expect: Expect,
) -> Pair {
    Pair {
        limitation,
        function,
        operation,
        expect,
    }
}

/// The operations of each function, as cairn performs them.
const READ_OPS: &[&str] = &[
    "loadContent",
    "loadContentInVersion",
    "loadLocation",
    "loadLocationChildren",
    "loadLocationsForContent",
    "createView",
    "loadVersionRelations",
    "getObjectStatesForContent",
    "listLocationURLAliases",
    "createBookmark",
];
const VERSIONREAD_OPS: &[&str] = &["loadContentVersions", "loadContentInVersion"];
const CREATE_OPS: &[&str] = &[
    "createContent",
    "copyContent",
    "copySubtree",
    "moveSubtree",
    "createLocation",
];
const EDIT_OPS: &[&str] = &[
    "updateContentMetadata",
    "createDraftFromCurrentVersion",
    "updateVersion",
    "deleteTranslationFromDraft",
    "createRelation",
    "removeRelation",
    "updateLocation",
    "swapLocation",
];
const PUBLISH_OPS: &[&str] = &["publishVersion"];
const MANAGE_OPS: &[&str] = &["createLocation", "copyContent", "deleteSubtree"];
const HIDE_OPS: &[&str] = &["hideContent", "revealContent", "updateLocation"];
const REMOVE_OPS: &[&str] = &[
    "deleteContent",
    "deleteSubtree",
    "moveSubtree",
    "deleteContentTranslation",
];
const VERSIONREMOVE_OPS: &[&str] = &["deleteContentVersion"];
const STATE_ASSIGN_OPS: &[&str] = &["setObjectStatesForContent"];
const SECTION_ASSIGN_OPS: &[&str] = &["updateContentMetadata"];
const ROLE_ASSIGN_OPS: &[&str] = &[
    "assignRoleToUser",
    "unassignRoleFromUser",
    "assignRoleToUserGroup",
    "unassignRoleFromUserGroup",
];

/// The functions of the policy map with cairn operations, and those operations.
const FUNCTIONS: &[(&str, &[&str])] = &[
    ("content/read", READ_OPS),
    ("content/versionread", VERSIONREAD_OPS),
    ("content/create", CREATE_OPS),
    ("content/edit", EDIT_OPS),
    ("content/publish", PUBLISH_OPS),
    ("content/manage_locations", MANAGE_OPS),
    ("content/hide", HIDE_OPS),
    ("content/remove", REMOVE_OPS),
    ("content/versionremove", VERSIONREMOVE_OPS),
    ("state/assign", STATE_ASSIGN_OPS),
    ("section/assign", SECTION_ASSIGN_OPS),
    ("role/assign", ROLE_ASSIGN_OPS),
    ("user/login", &["createSession"]),
];

/// Where the reference's limitation does not decide: (limitation, function, operation).
const NOT_DECIDING: &[(&str, &str, &str, Expect)] = &[
    // A new draft is granted whatever its language (`NewDraftEvaluator`).
    (
        "Language",
        "content/edit",
        "createDraftFromCurrentVersion",
        Expect::BothAllowed,
    ),
    // `ChangeOwner` decides only on a content item being created; on an existing one it
    // abstains, and a Policy passes only on grants.
    (
        "ChangeOwner",
        "content/create",
        "copyContent",
        Expect::BothRefused,
    ),
    (
        "ChangeOwner",
        "content/create",
        "copySubtree",
        Expect::BothRefused,
    ),
    (
        "ChangeOwner",
        "content/create",
        "moveSubtree",
        Expect::BothRefused,
    ),
    (
        "ChangeOwner",
        "content/create",
        "createLocation",
        Expect::BothRefused,
    ),
    // `Status` looks at a version: the list of versions checks the item first, which has
    // none (the reference answers 406 there, cairn 401).
    (
        "Status",
        "content/versionread",
        "loadContentVersions",
        Expect::BothRefused,
    ),
];

/// `ChangeOwner` on `content/edit` never grants (every operation: see [`NOT_DECIDING`]).
fn not_deciding(limitation: &str, function: &str, operation: &str) -> Option<Expect> {
    if limitation == "ChangeOwner" && function == "content/edit" {
        return Some(Expect::BothRefused);
    }
    NOT_DECIDING
        .iter()
        .find(|(l, f, o, _)| *l == limitation && *f == function && *o == operation)
        .map(|(.., e)| *e)
}

/// The rows: every (limitation, function) of the policy map that cairn performs, with each
/// operation of the function.
fn pairs() -> Vec<Pair> {
    let map = cairn::api::routes::POLICY_MAP;
    let mut out = Vec::new();
    for (function, ops) in FUNCTIONS {
        let (module, f) = function.split_once('/').unwrap();
        let lims = map
            .iter()
            .find(|(m, _)| *m == module)
            .and_then(|(_, fs)| fs.iter().find(|(x, _)| *x == f))
            .map(|(_, l)| *l)
            .unwrap_or_else(|| panic!("{function} is not in the policy map"));
        for limitation in lims.iter() {
            for op in ops.iter() {
                let expect = not_deciding(limitation, function, op);
                out.push(match expect {
                    Some(e) => both(limitation, function, op, e),
                    None => p(limitation, function, op),
                });
            }
        }
    }
    out
}

/// The row's table line in `docs/permissions.md`.
fn line(p: &Pair) -> String {
    let outcome = match p.expect {
        Expect::Differs => "allowed / refused",
        Expect::BothAllowed => "allowed / allowed (does not decide)",
        Expect::BothRefused => "refused / refused (never grants)",
    };
    format!(
        "| {} | {} | {} | {} |",
        p.limitation, p.function, p.operation, outcome
    )
}

/// The table as documented.
fn table() -> String {
    let mut out = String::from(
        "| limitation | function | operation | allowed object / other object |\n|---|---|---|---|\n",
    );
    for p in pairs() {
        out.push_str(&line(&p));
        out.push('\n');
    }
    out
}

#[test]
fn the_documented_table_is_the_tested_one() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/permissions.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let (start, end) = ("<!-- matrix -->\n", "<!-- /matrix -->");
    let want = table();
    let current = doc
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(t, _)| t.to_string());
    if current.as_deref() != Some(want.as_str()) {
        if std::env::var("UPDATE_DOCS").is_ok()
            && let Some((head, rest)) = doc.split_once(start)
            && let Some((_, tail)) = rest.split_once(end)
        {
            std::fs::write(&path, format!("{head}{start}{want}{end}{tail}")).unwrap();
        }
        panic!(
            "docs/permissions.md's table between {start:?} and {end:?} differs from the tested \
             one; rerun with UPDATE_DOCS=1 to write it"
        );
    }
}

/// What the objects of a row are made of: a content item (in an area folder of its own), a
/// version of it to act on, and a Location to place things under.
#[derive(Debug, Clone)]
struct Spec {
    class: i64,
    section: i64,
    language: &'static str,
    owner: Option<i64>,
    state: i64,
    /// The version acted on is archived (else it is a draft).
    archived: bool,
    dest_owner: Option<i64>,
    dest_class: i64,
    dest_deeper: bool,
    /// What an assignment operation sets: the Section, the Object state.
    new_section: i64,
    new_state: i64,
    /// What a create makes the owner (`User`), when it names one.
    create_owner: Option<i64>,
}

impl Spec {
    fn new() -> Spec {
        Spec {
            class: 1,
            section: 1,
            language: ENG,
            owner: None,
            state: 1,
            archived: false,
            dest_owner: None,
            dest_class: 1,
            dest_deeper: false,
            new_section: 3,
            new_state: 2,
            create_owner: None,
        }
    }
}

/// A built object: its item, Location, version, relation, destination and area.
#[derive(Debug, Clone)]
struct Scene {
    spec: Spec,
    area: (i64, String),
    content: i64,
    path: String,
    version: i64,
    relation: i64,
    dest: String,
    /// An item like `content` (for a swap).
    twin: String,
}

fn loc_id(path: &str) -> i64 {
    last_id(path)
}

fn other(language: &str) -> &'static str {
    if language == GER { ENG } else { GER }
}

fn href(path: &str) -> String {
    format!("{PREFIX}{path}")
}

/// Creates (as admin) and publishes an item of `class` under `parent`; its id and path.
async fn item(
    app: &TestApp,
    class: i64,
    parent: &str,
    language: &str,
    section: i64,
    owner: Option<i64>,
) -> (i64, String) {
    let mut body = json!({
        "ContentType": {"_href": href(&format!("/content/types/{class}"))},
        "mainLanguageCode": language,
        "Section": {"_href": href(&format!("/content/sections/{section}"))},
        "LocationCreate": {"ParentLocation": {"_href": href(&format!("/content/locations/{parent}"))}},
        "fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": language, "fieldValue": "Item"}]}
    });
    if let Some(o) = owner {
        body["User"] = json!({"_href": href(&format!("/user/users/{o}"))});
    }
    let r = app
        .req("POST", "/content/objects?publish=true")
        .admin()
        .json_body("ContentCreate", body)
        .accept("ContentInfo+json")
        .send()
        .await;
    r.assert(201);
    let id = r.json()["Content"]["_id"].as_i64().unwrap();
    let main = r.json()["Content"]["MainLocation"]["_href"]
        .as_str()
        .unwrap()
        .trim_start_matches(&href("/content/locations/"))
        .to_string();
    (id, main)
}

/// Names version `no` of `id` in `language` (as admin).
async fn rename(app: &TestApp, id: i64, no: i64, language: &str, name: &str) {
    app.req("PATCH", &format!("/content/objects/{id}/versions/{no}"))
        .admin()
        .json_body(
            "VersionUpdate",
            json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": language, "fieldValue": name}]}}),
        )
        .send()
        .await
        .assert(200);
}

/// A new draft of `id` (as admin); its number.
async fn draft(app: &TestApp, id: i64) -> i64 {
    let r = app
        .req("COPY", &format!("/content/objects/{id}/currentversion"))
        .admin()
        .accept("Version+json")
        .send()
        .await;
    r.assert(201);
    r.json()["Version"]["VersionInfo"]["versionNo"]
        .as_i64()
        .unwrap()
}

/// Builds the objects of `spec` for `operation`.
async fn scene(app: &TestApp, spec: Spec, pair: &Pair) -> Scene {
    let (operation, function) = (pair.operation, pair.function);
    let (area_id, area) = item(app, 1, "1/2", ENG, 1, spec.owner).await;
    // An operation that removes a translation: the item lives in the other language and the
    // version acted on gains the one removed.
    let removes = matches!(
        operation,
        "deleteTranslationFromDraft" | "deleteContentTranslation"
    );
    let main = if removes {
        other(spec.language)
    } else {
        spec.language
    };
    let (content, path) = item(app, spec.class, &area, main, spec.section, spec.owner).await;
    if spec.state != 1 {
        app.req("PATCH", &format!("/content/objects/{content}/objectstates"))
            .admin()
            .json_body(
                "ContentObjectStates",
                json!({"ObjectState": [{"_href": href(&format!("/content/objectstategroups/2/objectstates/{}", spec.state))}]}),
            )
            .send()
            .await
            .assert(200);
    }
    // The version acted on, when the operation acts on one: a draft changed in the row's
    // language (with a relation, for an operation that removes one).
    let versioned = matches!(
        function,
        "content/versionread" | "content/versionremove" | "content/publish"
    ) || matches!(
        operation,
        "updateVersion"
            | "deleteTranslationFromDraft"
            | "createRelation"
            | "removeRelation"
            | "deleteContentTranslation"
    );
    let (mut version, mut relation) = (1, 0);
    if versioned {
        version = draft(app, content).await;
        rename(app, content, version, spec.language, "Changed").await;
    }
    if operation == "removeRelation" {
        let r = app
            .req(
                "POST",
                &format!("/content/objects/{content}/versions/{version}/relations"),
            )
            .admin()
            .json_body(
                "RelationCreate",
                json!({"Destination": {"_href": href(&format!("/content/objects/{area_id}"))}}),
            )
            .accept("Relation+json")
            .send()
            .await;
        r.assert(201);
        relation = last_id(r.json()["Relation"]["_href"].as_str().unwrap());
    }
    if versioned && (spec.archived || operation == "deleteContentTranslation") {
        crate::content::publish(app, content, version).await;
        if spec.archived {
            version = 1;
        }
    }
    // Where a placement goes, for the operations that place.
    let placing = CREATE_OPS.contains(&operation);
    let mut dest = area.clone();
    if placing {
        dest = item(app, spec.dest_class, &area, ENG, 1, spec.dest_owner)
            .await
            .1;
        if spec.dest_deeper {
            dest = item(app, 1, &dest, ENG, 1, spec.dest_owner).await.1;
        }
    }
    let twin = if operation == "swapLocation" {
        item(app, spec.class, &area, main, spec.section, spec.owner)
            .await
            .1
    } else {
        String::new()
    };
    Scene {
        spec,
        area: (area_id, area),
        content,
        path,
        version,
        relation,
        dest,
        twin,
    }
}

/// The specs of the two objects of a row, for the test user `me`.
fn specs(limitation: &str, me: i64) -> (Spec, Spec) {
    let (mut a, mut b) = (Spec::new(), Spec::new());
    match limitation {
        "Class" => b.class = 3,
        "Section" => b.section = 3,
        "Owner" | "Group" => a.owner = Some(me),
        "Node" | "Subtree" => {}
        "State" => b.state = 2,
        "Language" => {
            a.language = GER;
            b.language = ENG;
        }
        "ParentOwner" | "ParentGroup" => a.dest_owner = Some(me),
        "ParentClass" => b.dest_class = 3,
        "ParentDepth" => b.dest_deeper = true,
        "Status" => b.archived = true,
        "NewSection" => b.new_section = 2,
        "NewState" => b.new_state = 1,
        "ChangeOwner" => {
            a.create_owner = Some(me);
            b.create_owner = Some(14);
        }
        other => panic!("no objects for {other}"),
    }
    (a, b)
}

/// The limitation's values that allow `allowed` (and not the other object).
fn values(pair: &Pair, allowed: &Scene) -> Vec<String> {
    let (limitation, operation) = (pair.limitation, pair.operation);
    // A create looks at the Location it places under.
    let placing = pair.function == "content/create";
    let v = |s: &str| vec![s.to_string()];
    match limitation {
        "Class" | "ParentClass" => v("1"),
        "Section" => v("1"),
        "Owner" | "Group" | "ParentOwner" | "ParentGroup" => v("1"),
        "Node" if placing => v(&loc_id(&allowed.dest).to_string()),
        // A swap edits the item's Location and its twin's.
        "Node" if operation == "swapLocation" => vec![
            loc_id(&allowed.path).to_string(),
            loc_id(&allowed.twin).to_string(),
        ],
        "Node" => v(&loc_id(&allowed.path).to_string()),
        "Subtree" => v(&format!("/{}/", allowed.area.1)),
        "State" => v("1"),
        "Language" => v(GER),
        "ParentDepth" => v(&(allowed.dest.split('/').count() as i64 - 1).to_string()),
        "Status" => v("0"),
        "NewSection" => v("3"),
        "NewState" => v("2"),
        "ChangeOwner" => v("-1"),
        other => panic!("no values for {other}"),
    }
}

/// The functions `operation` needs besides the one it is tested for.
fn needs(operation: &str) -> &'static [&'static str] {
    match operation {
        "copyContent" | "createLocation" => &["content/create", "content/manage_locations"],
        "copySubtree" | "moveSubtree" => &["content/create", "content/remove"],
        "deleteSubtree" => &["content/manage_locations", "content/remove"],
        "updateLocation" => &["content/edit", "content/hide"],
        "createBookmark" => &[],
        _ => &[],
    }
}

/// The Policies of the row's user: the tested function with the limitation, and without
/// limitation whatever else the operation needs (reading included).
fn policies(pair: &Pair, values: Vec<String>, area_location: i64) -> Vec<Value> {
    let split = |f: &str| {
        let (m, n) = f.split_once('/').unwrap();
        (m.to_string(), n.to_string())
    };
    let (m, f) = split(pair.function);
    let mut out = vec![json!([m, f, [[pair.limitation, values]]])];
    let mut support: Vec<&str> = vec!["content/read", "content/versionread"];
    support.extend(needs(pair.operation));
    for s in support {
        if s != pair.function {
            let (m, f) = split(s);
            out.push(json!([m, f, []]));
        }
    }
    if pair.function == "content/read" {
        // The area itself, to list its children.
        out.push(json!([
            "content",
            "read",
            [["Node", [area_location.to_string()]]]
        ]));
    }
    out
}

/// What the admin reads of a scene: the item with its versions, Locations and states, the
/// area's and the destination's children, the trash and the bookmarks of the user.
async fn snapshot(app: &TestApp, s: &Scene) -> String {
    let mut out = String::new();
    let paths = [
        (
            format!("/content/objects/{}", s.content),
            "Content+json".to_string(),
        ),
        (
            format!("/content/objects/{}/versions", s.content),
            "VersionList+json".into(),
        ),
        (
            format!("/content/objects/{}/locations", s.content),
            "LocationList+json".into(),
        ),
        (
            format!("/content/objects/{}/objectstates", s.content),
            "ContentObjectStates+json".into(),
        ),
        (
            format!(
                "/content/objects/{}/versions/{}/relations",
                s.content, s.version
            ),
            "RelationList+json".into(),
        ),
        (
            format!("/content/locations/{}/children", s.area.1),
            "LocationList+json".into(),
        ),
        (
            format!("/content/locations/{}/children", s.dest),
            "LocationList+json".into(),
        ),
        ("/content/trash".to_string(), "Trash+json".into()),
    ];
    for (path, accept) in paths {
        let r = app.get(&path).admin().accept(&accept).send().await;
        out.push_str(&format!("{path} {} {}\n", r.status, r.body));
    }
    out
}

/// Performs the row's operation on `s` as `login`, as its function does it: whether it was
/// allowed (a 2xx, or the object listed) or refused (401, or the object left out of the list).
async fn perform(app: &TestApp, login: &str, pair: &Pair, s: &Scene) -> bool {
    let (operation, function) = (pair.operation, pair.function);
    let c = s.content;
    fn to<'a>(r: Req<'a>, path: &str) -> Req<'a> {
        r.header("destination", &href(&format!("/content/locations/{path}")))
    }
    let as_me = |r| as_user(r, login);
    let dest = |r| to(r, &s.dest);
    let r = match operation {
        "loadContent" => as_me(app.get(&format!("/content/objects/{c}"))),
        "loadContentInVersion" => {
            let no = if function == "content/read" { 1 } else { s.version };
            as_me(app.get(&format!("/content/objects/{c}/versions/{no}")))
        }
        "loadLocation" => as_me(app.get(&format!("/content/locations/{}", s.path))),
        "loadLocationChildren" => {
            let r = as_me(app.get(&format!("/content/locations/{}/children", s.area.1)))
                .accept("LocationList+json")
                .send()
                .await;
            r.assert(200);
            return r.body.contains(&format!("/content/locations/{}\"", s.path));
        }
        "loadLocationsForContent" => {
            as_me(app.get(&format!("/content/objects/{c}/locations")))
        }
        "createView" => {
            let r = as_me(app.req("POST", "/views"))
                .raw_body(
                    "application/vnd.ibexa.api.ViewInput+json; version=1.1",
                    &json!({"ViewInput": {"identifier": "m", "ContentQuery": {"Filter": {"ContentIdCriterion": c.to_string()}}}})
                        .to_string(),
                )
                .accept("View+json")
                .send()
                .await;
            r.assert(200);
            return r.json()["View"]["Result"]["count"].as_i64() == Some(1);
        }
        "loadVersionRelations" => {
            as_me(app.get(&format!("/content/objects/{c}/versions/1/relations")))
        }
        "getObjectStatesForContent" => {
            as_me(app.get(&format!("/content/objects/{c}/objectstates")))
        }
        "listLocationURLAliases" => {
            as_me(app.get(&format!("/content/locations/{}/urlaliases", s.path)))
        }
        "createBookmark" => as_me(app.req("POST", &format!("/bookmark/{}", loc_id(&s.path)))),
        "loadContentVersions" => {
            let r = as_me(app.get(&format!("/content/objects/{c}/versions")))
                .accept("VersionList+json")
                .send()
                .await;
            // The item itself may be refused (401), or the version left out.
            if r.status.as_u16() == 401 {
                return false;
            }
            r.assert(200);
            return r
                .body
                .contains(&format!("/content/objects/{c}/versions/{}\"", s.version));
        }
        "createContent" => {
            let mut body = json!({
                "ContentType": {"_href": href(&format!("/content/types/{}", s.spec.class))},
                "mainLanguageCode": s.spec.language,
                "Section": {"_href": href(&format!("/content/sections/{}", s.spec.section))},
                "LocationCreate": {"ParentLocation": {"_href": href(&format!("/content/locations/{}", s.dest))}},
                "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": "New"}]}
            });
            if let Some(o) = s.spec.create_owner {
                body["User"] = json!({"_href": href(&format!("/user/users/{o}"))});
            }
            as_me(app.req("POST", "/content/objects")).json_body("ContentCreate", body)
        }
        "copyContent" => dest(as_me(app.req("COPY", &format!("/content/objects/{c}")))),
        "copySubtree" => dest(as_me(
            app.req("COPY", &format!("/content/locations/{}", s.path)),
        )),
        "moveSubtree" if function == "content/remove" => {
            as_me(app.req("MOVE", &format!("/content/locations/{}", s.path)))
                .header("destination", &href("/content/trash"))
        }
        "moveSubtree" => dest(as_me(
            app.req("MOVE", &format!("/content/locations/{}", s.path)),
        )),
        "createLocation" => as_me(app.req("POST", &format!("/content/objects/{c}/locations")))
            .json_body(
                "LocationCreate",
                json!({"ParentLocation": {"_href": href(&format!("/content/locations/{}", s.dest))}}),
            ),
        "updateContentMetadata" if function == "section/assign" => {
            as_me(app.req("PATCH", &format!("/content/objects/{c}"))).json_body(
                "ContentUpdate",
                json!({"Section": {"_href": href(&format!("/content/sections/{}", s.spec.new_section))}}),
            )
        }
        "updateContentMetadata" => as_me(app.req("PATCH", &format!("/content/objects/{c}")))
            .json_body("ContentUpdate", json!({"alwaysAvailable": true})),
        "createDraftFromCurrentVersion" => {
            as_me(app.req("COPY", &format!("/content/objects/{c}/currentversion")))
        }
        "updateVersion" => as_me(app.req(
            "PATCH",
            &format!("/content/objects/{c}/versions/{}", s.version),
        ))
        .json_body(
            "VersionUpdate",
            json!({"fields": {"field": [{"fieldDefinitionIdentifier": "name", "languageCode": s.spec.language, "fieldValue": "Edited"}]}}),
        ),
        "deleteTranslationFromDraft" => as_me(app.req(
            "DELETE",
            &format!(
                "/content/objects/{c}/versions/{}/translations/{}",
                s.version, s.spec.language
            ),
        )),
        "createRelation" => as_me(app.req(
            "POST",
            &format!("/content/objects/{c}/versions/{}/relations", s.version),
        ))
        .json_body(
            "RelationCreate",
            json!({"Destination": {"_href": href("/content/objects/41")}}),
        ),
        "removeRelation" => as_me(app.req(
            "DELETE",
            &format!(
                "/content/objects/{c}/versions/{}/relations/{}",
                s.version, s.relation
            ),
        )),
        "updateLocation" if function == "content/hide" => {
            as_me(app.req("PATCH", &format!("/content/locations/{}", s.path)))
                .json_body("LocationUpdate", json!({"hidden": true}))
        }
        "updateLocation" => as_me(app.req("PATCH", &format!("/content/locations/{}", s.path)))
            .json_body("LocationUpdate", json!({"priority": 7})),
        "swapLocation" => as_me(app.req("SWAP", &format!("/content/locations/{}", s.path)))
            .header("destination", &href(&format!("/content/locations/{}", s.twin))),
        "publishVersion" => as_me(app.req(
            "PUBLISH",
            &format!("/content/objects/{c}/versions/{}", s.version),
        )),
        "deleteSubtree" => as_me(app.req("DELETE", &format!("/content/locations/{}", s.path))),
        "hideContent" => as_me(app.req("POST", &format!("/content/objects/{c}/hide"))),
        "revealContent" => as_me(app.req("POST", &format!("/content/objects/{c}/reveal"))),
        "deleteContent" => as_me(app.req("DELETE", &format!("/content/objects/{c}"))),
        "deleteContentTranslation" => as_me(app.req(
            "DELETE",
            &format!("/content/objects/{c}/translations/{}", s.spec.language),
        )),
        "deleteContentVersion" => as_me(app.req(
            "DELETE",
            &format!("/content/objects/{c}/versions/{}", s.version),
        )),
        "setObjectStatesForContent" => {
            as_me(app.req("PATCH", &format!("/content/objects/{c}/objectstates"))).json_body(
                "ContentObjectStates",
                json!({"ObjectState": [{"_href": href(&format!("/content/objectstategroups/2/objectstates/{}", s.spec.new_state))}]}),
            )
        }
        other => panic!("no way to perform {other}"),
    };
    let r = r.send().await;
    match r.status.as_u16() {
        200..=299 => true,
        401 => {
            assert!(!r.assert_error(401).is_empty());
            false
        }
        other => panic!("{operation} as {login}: {other} {}", r.body),
    }
}

/// A row's user and its two objects.
struct Setup {
    login: String,
    allowed: Scene,
    refused: Scene,
}

/// A user in `group` whose Role gives the row's function with the limitation, and the two
/// objects the limitation tells apart.
async fn setup(app: &TestApp, group: &str, n: usize, pair: &Pair) -> Setup {
    let login = format!("m{n}");
    let me = user_in(app, group, &login).await;
    let (a, b) = specs(pair.limitation, me);
    let allowed = scene(app, a, pair).await;
    let refused = scene(app, b, pair).await;
    let values = values(pair, &allowed);
    let area = loc_id(&allowed.area.1);
    let mut ps = policies(pair, values, area);
    // The other object's area is readable too, so that only the limitation differs.
    if pair.function == "content/read" {
        ps.push(json!([
            "content",
            "read",
            [["Node", [loc_id(&refused.area.1).to_string()]]]
        ]));
    }
    role_for(app, me, &format!("Row{n}"), &ps, None).await;
    Setup {
        login,
        allowed,
        refused,
    }
}

/// Performs the row's operation on both objects: what it expects of each, and nothing
/// changed by a refusal.
async fn check(app: &TestApp, s: &Setup, pair: &Pair) {
    let what = format!(
        "{} on {} by {}",
        pair.limitation, pair.function, pair.operation
    );
    let want = match pair.expect {
        Expect::Differs => (true, false),
        Expect::BothAllowed => (true, true),
        Expect::BothRefused => (false, false),
    };
    for (scene, want) in [(&s.allowed, want.0), (&s.refused, want.1)] {
        let before = if want {
            None
        } else {
            Some(snapshot(app, scene).await)
        };
        let got = perform(app, &s.login, pair, scene).await;
        assert_eq!(got, want, "{what}: {:?}", scene.spec);
        if let Some(before) = before {
            assert_eq!(
                snapshot(app, scene).await,
                before,
                "{what}: refused, yet changed"
            );
        }
    }
}

/// Runs every row of `limitation`. The reading functions' operations change nothing they
/// look at, so their rows share one user and one pair of objects per function; every other
/// row gets its own.
async fn rows_of(limitation: &str) {
    let app = TestApp::with_args(&["--language", "ger-DE=German"]).await;
    let rows: Vec<Pair> = pairs()
        .into_iter()
        .filter(|p| p.limitation == limitation)
        .collect();
    assert!(!rows.is_empty(), "no rows for {limitation}");
    let first = plain_user(&app, "m-first").await;
    let group = group_of(&app, first).await;
    let mut shared: Option<(&str, Setup)> = None;
    for (n, pair) in rows.iter().enumerate() {
        let reading = matches!(pair.function, "content/read" | "content/versionread");
        if !reading {
            check(&app, &setup(&app, &group, n, pair).await, pair).await;
            continue;
        }
        if shared.as_ref().is_none_or(|(f, _)| *f != pair.function) {
            shared = Some((pair.function, setup(&app, &group, n, pair).await));
        }
        if let Some((_, s)) = &shared {
            check(&app, s, pair).await;
        }
    }
}

macro_rules! rows {
    ($($name:ident: $limitation:literal,)*) => {$(
        #[tokio::test]
        async fn $name() {
            rows_of($limitation).await;
        }
    )*};
}

rows! {
    class_on_each_operation: "Class",
    section_on_each_operation: "Section",
    owner_on_each_operation: "Owner",
    group_on_each_operation: "Group",
    node_on_each_operation: "Node",
    subtree_on_each_operation: "Subtree",
    state_on_each_operation: "State",
    language_on_each_operation: "Language",
    change_owner_on_each_operation: "ChangeOwner",
    parent_owner_on_each_operation: "ParentOwner",
    parent_group_on_each_operation: "ParentGroup",
    parent_class_on_each_operation: "ParentClass",
    parent_depth_on_each_operation: "ParentDepth",
    status_on_each_operation: "Status",
    new_section_on_each_operation: "NewSection",
    new_state_on_each_operation: "NewState",
}

/// A Role `name` with no Policy, published; its id.
async fn empty_role(app: &TestApp, name: &str) -> i64 {
    let r = app
        .req("POST", "/user/roles?publish=true")
        .admin()
        .json_body("RoleInput", json!({"identifier": name}))
        .accept("Role+json")
        .send()
        .await;
    r.assert(201);
    last_id(r.json()["Role"]["_href"].as_str().unwrap())
}

/// The group path (`1/5/n`) of a user made by [`plain_user`].
async fn group_of(app: &TestApp, user: i64) -> String {
    let r = app
        .get(&format!("/user/users/{user}/groups"))
        .admin()
        .accept("UserGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    let href = r.json()["UserGroupRefList"]["UserGroup"][0]["_href"]
        .as_str()
        .unwrap()
        .to_string();
    href.trim_start_matches(&href_of_groups()).to_string()
}

fn href_of_groups() -> String {
    format!("{PREFIX}/user/groups/")
}

/// `role/assign` with `Role` and `MemberOf`: assigning and unassigning a Role to and from a
/// user and a group, allowed for one Role or group and refused for another.
#[tokio::test]
async fn role_and_member_of_on_each_operation() {
    let app = TestApp::new().await;
    let rows: Vec<Pair> = pairs()
        .into_iter()
        .filter(|p| p.function == "role/assign")
        .collect();
    assert_eq!(rows.len(), 8);
    for (n, pair) in rows.iter().enumerate() {
        let login = format!("r{n}");
        let me = plain_user(&app, &login).await;
        let (r1, r2) = (
            empty_role(&app, &format!("A{n}")).await,
            empty_role(&app, &format!("B{n}")).await,
        );
        let (t1, t2) = (
            plain_user(&app, &format!("ta{n}")).await,
            plain_user(&app, &format!("tb{n}")).await,
        );
        let (g1, g2) = (group_of(&app, t1).await, group_of(&app, t2).await);
        let groups = pair.operation.ends_with("UserGroup");
        // (subject, its path, the Role): the allowed one, then the other.
        let (allowed, other) = match pair.limitation {
            "Role" => ((t1, g1.clone(), r1), (t1, g1.clone(), r2)),
            _ => ((t1, g1.clone(), r1), (t2, g2.clone(), r1)),
        };
        let values = match pair.limitation {
            "Role" => vec![r1.to_string()],
            _ => vec![content_of_group(&app, &g1).await.to_string()],
        };
        role_for(
            &app,
            me,
            &format!("Assigner{n}"),
            &[
                json!(["role", "assign", [[pair.limitation, values]]]),
                json!(["role", "read", []]),
                json!(["content", "read", []]),
            ],
            None,
        )
        .await;
        let path = |user: i64, group: &str| {
            if groups {
                format!("/user/groups/{group}/roles")
            } else {
                format!("/user/users/{user}/roles")
            }
        };
        let assign = |role: i64| json!({"Role": {"_href": href(&format!("/user/roles/{role}"))}});
        for ((user, group, role), want) in [(allowed, true), (other, false)] {
            if pair.operation.starts_with("unassign") {
                app.req("POST", &path(user, &group))
                    .admin()
                    .json_body("RoleAssignInput", assign(role))
                    .send()
                    .await
                    .assert(200);
            }
            let before = app.get(&path(user, &group)).admin().send().await.body;
            let r = if pair.operation.starts_with("unassign") {
                as_user(
                    app.req("DELETE", &format!("{}/{role}", path(user, &group))),
                    &login,
                )
            } else {
                as_user(app.req("POST", &path(user, &group)), &login)
                    .json_body("RoleAssignInput", assign(role))
            };
            let r = r.send().await;
            let what = format!("{} on role/assign by {}", pair.limitation, pair.operation);
            if want {
                r.assert(200);
            } else {
                r.assert_error(401);
                let after = app.get(&path(user, &group)).admin().send().await.body;
                assert_eq!(after, before, "{what}: refused, yet changed");
            }
        }
    }
}

/// The content id of the group at `path` (`1/5/n`).
async fn content_of_group(app: &TestApp, path: &str) -> i64 {
    let r = app
        .get(&format!("/user/groups/{path}"))
        .admin()
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(200);
    r.json()["UserGroup"]["_id"].as_i64().unwrap()
}

/// `user/login` with `SiteAccess`: a session through the named siteaccess opens, through
/// another it is refused.
#[tokio::test]
async fn site_access_on_login() {
    let app = TestApp::new().await;
    let rows: Vec<Pair> = pairs()
        .into_iter()
        .filter(|p| p.function == "user/login")
        .collect();
    assert_eq!(rows.len(), 1);
    let me = plain_user(&app, "site").await;
    // `1766001124` is the CRC-32 of `site`, as the reference stores the value.
    role_for(
        &app,
        me,
        "SiteOnly",
        &[json!(["user", "login", [["SiteAccess", ["1766001124"]]]])],
        None,
    )
    .await;
    for (siteaccess, want) in [("site", 201), ("admin", 401)] {
        let r = app
            .req("POST", "/user/sessions")
            .header("x-siteaccess", siteaccess)
            .json_body("SessionInput", json!({"login": "site", "password": PW}))
            .send()
            .await;
        assert_eq!(r.status.as_u16(), want, "{siteaccess}: {}", r.body);
    }
}
