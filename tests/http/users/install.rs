//! The clean install's users and groups in both formats, and a thumbnail without an image
//! (the type's icon).

use super::*;

#[tokio::test]
async fn the_clean_install_users_and_groups_load_in_both_formats() {
    let app = TestApp::new().await;
    let r = app
        .get("/user/users/14")
        .admin()
        .accept("User+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.content_type(), "application/vnd.ibexa.api.User+json");
    assert!(r.header("etag").is_some());
    assert_eq!(
        r.header("accept-patch").unwrap(),
        "application/vnd.ibexa.api.UserUpdate+json"
    );
    let u = &r.json()["User"];
    assert_eq!(u["_href"], format!("{PREFIX}/user/users/14"));
    assert_eq!(u["_id"], 14);
    assert_eq!(u["login"], "admin");
    assert_eq!(u["email"], "admin@link.invalid");
    assert_eq!(u["enabled"], true);
    assert_eq!(u["name"], "Administrator User");
    assert_eq!(
        u["ContentType"]["_href"],
        format!("{PREFIX}/content/types/4")
    );
    assert_eq!(
        u["MainLocation"]["_href"],
        format!("{PREFIX}/content/locations/1/5/13/15")
    );
    assert_eq!(
        u["Groups"]["_href"],
        format!("{PREFIX}/user/users/14/groups")
    );
    assert_eq!(
        u["Groups"]["_media-type"],
        "application/vnd.ibexa.api.UserGroupRefList+json"
    );
    assert_eq!(u["Roles"]["_href"], format!("{PREFIX}/user/users/14/roles"));
    assert_eq!(u["Version"]["VersionInfo"]["status"], "PUBLISHED");
    let fields = u["Version"]["Fields"]["field"].as_array().unwrap();
    let account = fields
        .iter()
        .find(|f| f["fieldDefinitionIdentifier"] == "user_account")
        .unwrap();
    assert_eq!(account["fieldValue"]["login"], "admin");
    assert!(account["fieldValue"].get("passwordHash").is_none());

    let r = app
        .get("/user/users/14")
        .admin()
        .accept("User+xml")
        .send()
        .await;
    r.assert(200);
    let x = r.xml();
    assert_eq!(x.name, "User");
    assert_eq!(attr(&x, "id"), "14");
    let names: Vec<&str> = x.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ContentType",
            "name",
            "Versions",
            "Section",
            "MainLocation",
            "Locations",
            "Groups",
            "Owner",
            "publishDate",
            "lastModificationDate",
            "mainLanguageCode",
            "alwaysAvailable",
            "Version",
            "login",
            "email",
            "enabled",
            "UserGroups",
            "Roles"
        ]
    );

    let r = app
        .get("/user/groups/1/5/13")
        .admin()
        .accept("UserGroup+json")
        .send()
        .await;
    r.assert(200);
    let g = &r.json()["UserGroup"];
    assert_eq!(g["_id"], 12);
    assert_eq!(g["name"], "Administrator users");
    assert_eq!(
        g["ParentUserGroup"]["_href"],
        format!("{PREFIX}/user/groups/1/5")
    );
    assert_eq!(
        g["Subgroups"]["_href"],
        format!("{PREFIX}/user/groups/1/5/13/subgroups")
    );
    assert_eq!(
        g["Users"]["_href"],
        format!("{PREFIX}/user/groups/1/5/13/users")
    );

    let r = app
        .get("/user/groups/1/5/13")
        .admin()
        .accept("UserGroup+xml")
        .send()
        .await;
    r.assert(200);
    assert_eq!(child_text(&r.xml(), "name"), "Administrator users");

    // Root group, subgroups, users, the group of a user.
    let r = app.get("/user/groups/root").admin().send().await;
    r.assert(301);
    assert_eq!(
        r.header("location").unwrap(),
        format!("{PREFIX}/user/groups/1/5")
    );
    let r = app
        .get("/user/groups/1/5/subgroups")
        .admin()
        .accept("UserGroupRefList+json")
        .send()
        .await;
    r.assert(200);
    let subgroups: Vec<String> = r.json()["UserGroupRefList"]["UserGroup"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["_href"].as_str().unwrap().replace(PREFIX, ""))
        .collect();
    assert_eq!(
        subgroups,
        [
            "/user/groups/1/5/12",
            "/user/groups/1/5/13",
            "/user/groups/1/5/14",
            "/user/groups/1/5/44"
        ]
    );
    let r = app
        .get("/user/groups/1/5/44/users")
        .admin()
        .accept("UserList+json")
        .send()
        .await;
    r.assert(200);
    assert_eq!(r.json()["UserList"]["User"][0]["login"], "anonymous");
    assert_eq!(
        groups_of(&app, 14).await,
        [("/user/groups/1/5/13".to_string(), false)]
    );

    // Not a user, not a group (a group path names its last id, as in the reference).
    for path in [
        "/user/users/4",
        "/user/users/999",
        "/user/groups/1/2",
        "/user/groups/1/999",
    ] {
        app.get(path)
            .admin()
            .accept("User+json")
            .send()
            .await
            .assert_error(404);
    }
}

/// A version without an image has its content type's icon as Thumbnail, as the reference's
/// example bodies show (issue 11).
#[tokio::test]
async fn a_thumbnail_without_an_image_is_the_types_icon() {
    let app = TestApp::new().await;
    let u = app
        .get("/user/users/14")
        .admin()
        .accept("User+json")
        .send()
        .await
        .json();
    let t = &u["User"]["Version"]["Thumbnail"];
    assert_eq!(
        t["resource"],
        "/bundles/ezplatformadminui/img/ez-icons.svg#user"
    );
    assert_eq!(t["mimeType"], "image/svg+xml");
}
