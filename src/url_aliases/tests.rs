//! The alias machinery against a real database (SQLite in a temporary directory, or a fresh
//! schema of the PostgreSQL server named by `CAIRN_TEST_DATABASE_URL`): lookups of the clean
//! install, and every hook, with Locations and content written directly.

use super::elements::{self, location_of_alias};
use crate::language_list::Languages;
use crate::tree;
use cairn_runtime::LangMap;
use cairn_store::Db;
use cairn_store::entity::{content, content_version, location, url_alias};
use cairn_store::events::Change;
use cairn_store::scratch::CleanDb;
use cairn_store::sql::stmt;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
};

fn names(pairs: &[(&str, &str)]) -> LangMap {
    LangMap(
        pairs
            .iter()
            .map(|(l, n)| (l.to_string(), n.to_string()))
            .collect(),
    )
}

fn eng(name: &str) -> LangMap {
    names(&[("eng-GB", name)])
}

async fn lookup(db: &DatabaseConnection, path: &str) -> Option<i64> {
    location_of_alias(db, path).await.expect("lookup")
}

/// A published folder-like content item named `name` (English).
async fn add_content(db: &DatabaseConnection, name: &str) -> content::Model {
    let c = cairn_store::write::insert(
        db,
        content::ActiveModel {
            content_type_id: Set(1),
            section_id: Set(1),
            owner_id: Set(14),
            remote_id: Set(format!("unit-{name}-{}", rand::random::<u32>())),
            main_language_code: Set("eng-GB".into()),
            always_available: Set(true),
            current_version: Set(1),
            status: Set(content::PUBLISHED),
            published: Set(0),
            modified: Set(0),
            is_hidden: Set(false),
            main_location_id: Set(None),
            name: Set(name.into()),
            ..Default::default()
        },
    )
    .await
    .expect("content");
    cairn_store::write::insert(
        db,
        content_version::ActiveModel {
            content_id: Set(c.id),
            version_no: Set(1),
            status: Set(content_version::PUBLISHED),
            creator_id: Set(14),
            created: Set(0),
            modified: Set(0),
            initial_language_code: Set("eng-GB".into()),
            language_codes: Set("eng-GB".into()),
            names: Set(serde_json::json!({ "eng-GB": name }).to_string()),
            ..Default::default()
        },
    )
    .await
    .expect("version");
    c
}

/// A new Location of `c` under `parent` (no aliases yet).
async fn place(db: &Db, parent: i64, c: &content::Model) -> location::Model {
    db.write_untracked(async |tx| {
        tree::create(
            tx,
            parent,
            c,
            tree::NewLocation {
                priority: 0,
                hidden: false,
                remote_id: None,
                sort_field: "PATH".into(),
                sort_order: "ASC".into(),
            },
        )
        .await
    })
    .await
    .expect("location")
}

/// Publishes the system aliases of `l` in the languages of `names` (always available).
async fn published(db: &Db, l: &location::Model, names: &LangMap) {
    db.write_untracked(async |tx| {
        super::location_published(tx, &Languages::default(), l, names, true, false).await
    })
    .await
    .expect("published");
}

/// A Location of a new content item `name` under `parent`, with its aliases published.
async fn add(db: &Db, parent: i64, name: &str) -> location::Model {
    let c = add_content(db.conn(), name).await;
    let l = place(db, parent, &c).await;
    published(db, &l, &eng(name)).await;
    l
}

/// Moves the subtree of `l` under `parent` the way the Location code does (one update of the
/// subtree's paths), then the hook.
async fn move_subtree(db: &Db, l: &location::Model, parent: i64) {
    db.write(Change::by_server("test", "/"), async |tx| {
        let l = tree::find(tx, l.id).await?;
        let parent = tree::find(tx, parent).await?;
        let backend = tx.get_database_backend();
        tx.execute_raw(stmt(
            backend,
            "UPDATE locations SET path_string = ? || substr(path_string, CAST(? AS INTEGER)), depth = depth + ? WHERE path_string >= ? AND path_string < ?",
            vec![
                format!("{}{}/", parent.path_string, l.id).into(),
                (l.path_string.len() as i64 + 1).into(),
                (parent.depth + 1 - l.depth).into(),
                l.path_string.clone().into(),
                tree::subtree_end(&l.path_string).into(),
            ],
        ))
        .await?;
        tx.execute_raw(stmt(
            backend,
            "UPDATE locations SET parent_id = ? WHERE id = ?",
            vec![parent.id.into(), l.id.into()],
        ))
        .await?;
        let moved = tree::find(tx, l.id).await?;
        super::subtree_moved(tx, &Languages::default(), &moved, l.parent_id).await
    })
    .await
    .expect("move");
}

async fn system_texts(db: &DatabaseConnection, location_id: i64) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = url_alias::Entity::find()
        .filter(url_alias::Column::Action.eq(format!("eznode:{location_id}")))
        .filter(url_alias::Column::IsAlias.eq(false))
        .all(db)
        .await
        .expect("rows")
        .into_iter()
        .map(|r| (r.text, r.is_original))
        .collect();
    v.sort();
    v
}

#[tokio::test]
async fn clean_install_lookups_are_case_insensitive_and_follow_history() {
    let t = CleanDb::new().await;
    let db = t.db.conn();
    assert_eq!(lookup(db, "/").await, Some(2));
    assert_eq!(lookup(db, "").await, Some(2));
    assert_eq!(lookup(db, "/Users").await, Some(5));
    assert_eq!(lookup(db, "/Users/Editors").await, Some(14));
    assert_eq!(lookup(db, "users/editors/").await, Some(14));
    assert_eq!(
        lookup(db, "/USERS/ADMINISTRATOR-USERS/administrator-user").await,
        Some(15)
    );
    // History: the eZ Publish 4 paths, below placeholders.
    assert_eq!(lookup(db, "/users2/editors").await, Some(14));
    assert_eq!(
        lookup(db, "/users2/administrator_users2/administrator_user").await,
        Some(15)
    );
    assert_eq!(lookup(db, "/media2/images").await, Some(51));
    assert_eq!(lookup(db, "/Media/Multimedia").await, Some(53));
    // A placeholder, a missing path, a path too deep.
    assert_eq!(lookup(db, "/users2").await, None);
    assert_eq!(lookup(db, "/Users/Nobody").await, None);
    assert_eq!(lookup(db, &"/a".repeat(61)).await, None);
}

#[tokio::test]
async fn publishing_generates_unique_slugs_and_keeps_history() {
    let t = CleanDb::new().await;
    let db = t.db.conn();
    let a = add(&t.db, 2, "My Folder").await;
    assert_eq!(lookup(db, "/My-Folder").await, Some(a.id));
    // A sibling with the same name gets a counter; the root's reserved names start at 2.
    let b = add(&t.db, 2, "My folder").await;
    assert_eq!(
        system_texts(db, b.id).await,
        [("My-folder2".to_string(), true)]
    );
    let c = add(&t.db, 2, "Content").await;
    assert_eq!(
        system_texts(db, c.id).await,
        [("Content2".to_string(), true)]
    );
    // Below a Location other than the site root, no reserved names; an empty name.
    let d = add(&t.db, a.id, "Content").await;
    assert_eq!(lookup(db, "/My-Folder/Content").await, Some(d.id));
    let e = add(&t.db, a.id, "").await;
    assert_eq!(lookup(db, "/My-Folder/_1").await, Some(e.id));
    // Publishing again with the same name changes nothing.
    published(&t.db, &a, &eng("My Folder")).await;
    assert_eq!(
        system_texts(db, a.id).await,
        [("My-Folder".to_string(), true)]
    );

    // A rename: the old text is history, and the subtree resolves under both.
    published(&t.db, &a, &eng("Renamed")).await;
    assert_eq!(
        system_texts(db, a.id).await,
        [
            ("My-Folder".to_string(), false),
            ("Renamed".to_string(), true)
        ]
    );
    assert_eq!(lookup(db, "/Renamed").await, Some(a.id));
    assert_eq!(lookup(db, "/my-folder").await, Some(a.id));
    assert_eq!(lookup(db, "/Renamed/Content").await, Some(d.id));
    assert_eq!(lookup(db, "/My-Folder/Content").await, Some(d.id));
    // The freed text can be taken by the sibling; renaming back takes the history over.
    published(&t.db, &a, &eng("My Folder")).await;
    assert_eq!(
        system_texts(db, a.id).await,
        [
            ("My-Folder".to_string(), true),
            ("Renamed".to_string(), false)
        ]
    );
    // The site root keeps the empty alias whatever its name.
    let root = tree::find(db, 2).await.unwrap();
    published(&t.db, &root, &eng("Ibexa Platform")).await;
    assert_eq!(lookup(db, "/").await, Some(2));
    assert_eq!(system_texts(db, 2).await, [(String::new(), true)]);
}

#[tokio::test]
async fn translations_share_the_element() {
    let t = CleanDb::new().await;
    t.db.ensure_languages(&[("pol-PL".into(), "Polish".into())])
        .await
        .unwrap();
    let db = t.db.conn();
    let a = add(&t.db, 2, "Folder").await;
    published(
        &t.db,
        &a,
        &names(&[("eng-GB", "Folder"), ("pol-PL", "Katalog")]),
    )
    .await;
    let child = add(&t.db, a.id, "Child").await;
    assert_eq!(lookup(db, "/Folder/Child").await, Some(child.id));
    assert_eq!(lookup(db, "/Katalog/Child").await, Some(child.id));
    let rows = url_alias::Entity::find()
        .filter(url_alias::Column::Action.eq(format!("eznode:{}", a.id)))
        .all(db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].id, rows[1].id);
    // The same text in both languages is one row with both languages.
    published(
        &t.db,
        &a,
        &names(&[("eng-GB", "Folder"), ("pol-PL", "Folder")]),
    )
    .await;
    let texts = system_texts(db, a.id).await;
    assert_eq!(
        texts,
        [("Folder".to_string(), true), ("Katalog".to_string(), false)]
    );
    let folder = elements::row(db, 0, &elements::hash("folder"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(folder.lang_mask, 2 | 4);
    // A translation removed: its language goes.
    published(&t.db, &a, &eng("Folder")).await;
    let folder = elements::row(db, 0, &elements::hash("folder"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(folder.lang_mask, 2);
}

#[tokio::test]
async fn a_moved_subtree_follows_its_root_in_a_fixed_number_of_statements() {
    let t = CleanDb::new().await;
    let db = t.db.conn();
    let a = add(&t.db, 2, "A").await;
    let b = add(&t.db, 2, "B").await;
    let c = add(&t.db, a.id, "C").await;
    let d = add(&t.db, c.id, "D").await;
    let before = t.db.statements();
    move_subtree(&t.db, &a, b.id).await;
    let small = t.db.statements() - before;
    assert_eq!(lookup(db, "/B/A/C/D").await, Some(d.id));
    assert_eq!(lookup(db, "/b/a").await, Some(a.id));
    // The old paths of the whole subtree keep resolving.
    assert_eq!(lookup(db, "/A/C/D").await, Some(d.id));
    assert_eq!(lookup(db, "/A").await, Some(a.id));
    assert_eq!(
        system_texts(db, a.id).await,
        [("A".to_string(), false), ("A".to_string(), true)]
    );
    // A bigger subtree costs the same.
    let e = add(&t.db, 2, "E").await;
    for i in 0..15 {
        add(&t.db, c.id, &format!("Leaf {i}")).await;
    }
    let before = t.db.statements();
    move_subtree(&t.db, &a, e.id).await;
    let big = t.db.statements() - before;
    assert_eq!(
        small, big,
        "statements of a move do not grow with the subtree"
    );
    assert_eq!(lookup(db, "/E/A/C/D").await, Some(d.id));
    assert_eq!(
        lookup(db, "/E/A/C/Leaf-3").await,
        lookup(db, "/B/A/C/Leaf-3").await
    );
    assert!(lookup(db, "/E/A/C/Leaf-3").await.is_some());
    assert_eq!(lookup(db, "/A/C/D").await, Some(d.id));
    // A sibling of the same name at the destination: the moved root gets a counter.
    let f = add(&t.db, 2, "F").await;
    let _other = add(&t.db, f.id, "A").await;
    move_subtree(&t.db, &a, f.id).await;
    assert_eq!(lookup(db, "/F/A2/C/D").await, Some(d.id));
    // Moving back under the site root takes the history text over.
    let a = tree::find(db, a.id).await.unwrap();
    move_subtree(&t.db, &a, 2).await;
    assert_eq!(lookup(db, "/A/C/D").await, Some(d.id));
    let current: Vec<String> = system_texts(db, a.id)
        .await
        .into_iter()
        .filter(|(_, o)| *o)
        .map(|(t, _)| t)
        .collect();
    assert_eq!(current, ["A"]);
}

#[tokio::test]
async fn removed_locations_lose_their_aliases() {
    let t = CleanDb::new().await;
    let db = t.db.conn();
    let a = add(&t.db, 2, "A").await;
    let c = add(&t.db, a.id, "C").await;
    let keep = add(&t.db, 2, "Keep").await;
    published(&t.db, &c, &eng("C renamed")).await;
    t.db.write(Change::by_server("test", "/"), async |tx| {
        super::locations_removed(tx, &a.path_string, &tree::subtree_end(&a.path_string)).await
    })
    .await
    .unwrap();
    assert_eq!(lookup(db, "/A").await, None);
    assert_eq!(lookup(db, "/A/C").await, None);
    assert!(system_texts(db, c.id).await.is_empty());
    assert_eq!(lookup(db, "/Keep").await, Some(keep.id));
    // The freed text is free again.
    let again = add(&t.db, 2, "A").await;
    assert_eq!(system_texts(db, again.id).await, [("A".to_string(), true)]);
}

#[tokio::test]
async fn swapped_locations_exchange_their_aliases_and_keep_their_children() {
    let t = CleanDb::new().await;
    let db = t.db.conn();
    // Clean install: 13 "Administrator users" (child 15) and 44 "Anonymous Users" (child 45).
    t.db.write(Change::by_server("test", "/"), async |tx| {
        tx.execute_unprepared(
            "UPDATE locations SET content_id = CASE WHEN id = 13 THEN 42 ELSE 12 END WHERE id IN (13, 44)",
        )
        .await?;
        super::locations_swapped(tx, &Languages::default(), 13, 44).await
    })
    .await
    .unwrap();
    assert_eq!(lookup(db, "/Users/Anonymous-users").await, Some(13));
    assert_eq!(lookup(db, "/Users/Administrator-users").await, Some(44));
    // Children stay below their Locations.
    assert_eq!(
        lookup(db, "/Users/Anonymous-users/Administrator-User").await,
        Some(15)
    );
    assert_eq!(
        lookup(db, "/Users/Administrator-users/Anonymous-User").await,
        Some(45)
    );
    assert_eq!(
        system_texts(db, 13)
            .await
            .into_iter()
            .filter(|(_, o)| *o)
            .collect::<Vec<_>>(),
        [("Anonymous-users".to_string(), true)]
    );
}

#[tokio::test]
async fn republishing_reads_the_names_of_the_content() {
    let t = CleanDb::new().await;
    let db = t.db.conn();
    (t.db)
        .write_untracked(async |tx| super::location_republished(tx, &Languages::default(), 5).await)
        .await
        .unwrap();
    assert_eq!(system_texts(db, 5).await, [("Users".to_string(), true)]);
    assert_eq!(lookup(db, "/Users/Editors").await, Some(14));
    let c = add_content(db, "Fresh content").await;
    let l = place(&t.db, 43, &c).await;
    (t.db)
        .write_untracked(async |tx| {
            super::location_republished(tx, &Languages::default(), l.id).await
        })
        .await
        .unwrap();
    assert_eq!(lookup(db, "/Media/Fresh-content").await, Some(l.id));
}
