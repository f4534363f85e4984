//! Content items, their versions, fields and relations, the Locations of the content tree,
//! the initial Locations of drafts, and the Object states of content items; with the clean
//! install's twelve content items, their Locations and their `ez_lock` states.
//!
//! Longer than 500 lines for one reason: a migration is applied once and never edited, and
//! the clean install's rows belong with the tables they fill.

use super::{bump_sequences, ddl};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE contents (
                id {pk},
                content_type_id BIGINT NOT NULL,
                section_id BIGINT NOT NULL,
                owner_id BIGINT NOT NULL,
                remote_id TEXT NOT NULL UNIQUE,
                main_language_code TEXT NOT NULL,
                always_available BOOLEAN NOT NULL,
                current_version BIGINT NOT NULL,
                status BIGINT NOT NULL,
                published BIGINT NOT NULL,
                modified BIGINT NOT NULL,
                is_hidden BOOLEAN NOT NULL,
                main_location_id BIGINT,
                name TEXT NOT NULL
            );
            CREATE INDEX contents_type ON contents (content_type_id);
            CREATE INDEX contents_section ON contents (section_id);
            CREATE INDEX contents_owner ON contents (owner_id);
            CREATE TABLE content_versions (
                id {pk},
                content_id BIGINT NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
                version_no BIGINT NOT NULL,
                status BIGINT NOT NULL,
                creator_id BIGINT NOT NULL,
                created BIGINT NOT NULL,
                modified BIGINT NOT NULL,
                initial_language_code TEXT NOT NULL,
                language_codes TEXT NOT NULL,
                names TEXT NOT NULL,
                UNIQUE (content_id, version_no)
            );
            CREATE INDEX content_versions_creator ON content_versions (creator_id, status);
            CREATE TABLE content_fields (
                id BIGINT NOT NULL,
                version_no BIGINT NOT NULL,
                content_id BIGINT NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
                field_definition_id BIGINT NOT NULL,
                language_code TEXT NOT NULL,
                value TEXT NOT NULL,
                sort_key_string TEXT NOT NULL,
                sort_key_int BIGINT NOT NULL,
                PRIMARY KEY (id, version_no)
            );
            CREATE INDEX content_fields_version ON content_fields (content_id, version_no);
            CREATE INDEX content_fields_definition ON content_fields (field_definition_id);
            CREATE TABLE content_relations (
                id {pk},
                source_content_id BIGINT NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
                source_version_no BIGINT NOT NULL,
                destination_content_id BIGINT NOT NULL,
                relation_type BIGINT NOT NULL,
                source_field_definition_id BIGINT
            );
            CREATE INDEX content_relations_source ON content_relations (source_content_id, source_version_no);
            CREATE INDEX content_relations_destination ON content_relations (destination_content_id);
            CREATE TABLE content_object_states (
                content_id BIGINT NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
                group_id BIGINT NOT NULL,
                state_id BIGINT NOT NULL,
                PRIMARY KEY (content_id, group_id)
            );
            CREATE INDEX content_object_states_state ON content_object_states (state_id);
            CREATE TABLE locations (
                id {pk},
                parent_id BIGINT NOT NULL,
                content_id BIGINT NOT NULL,
                path_string {path} NOT NULL,
                depth BIGINT NOT NULL,
                priority BIGINT NOT NULL,
                is_hidden BOOLEAN NOT NULL,
                is_invisible BOOLEAN NOT NULL,
                remote_id TEXT NOT NULL UNIQUE,
                sort_field TEXT NOT NULL,
                sort_order TEXT NOT NULL
            );
            CREATE INDEX locations_parent ON locations (parent_id, priority);
            CREATE INDEX locations_path ON locations (path_string);
            CREATE INDEX locations_content ON locations (content_id);
            CREATE TABLE pending_locations (
                content_id BIGINT NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
                parent_id BIGINT NOT NULL,
                priority BIGINT NOT NULL,
                is_hidden BOOLEAN NOT NULL,
                remote_id TEXT,
                sort_field TEXT,
                sort_order TEXT,
                PRIMARY KEY (content_id, parent_id)
            )",
        )
        .await?;
        seed(manager).await
    }
}

const EMPTY_RICHTEXT: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://docbook.org/ns/docbook\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"5.0-variant ezpublish-1.0\"/>\n";

/// (id, type, section, remote id, current version, published, modified, name)
type ContentRow = (i64, i64, i64, &'static str, i64, i64, i64, &'static str);
const CONTENTS: &[ContentRow] = &[
    (
        1,
        1,
        1,
        "9459d3c29e15006e45197295722c7ade",
        9,
        1448889046,
        1448889046,
        "Ibexa Platform",
    ),
    (
        4,
        3,
        2,
        "f5c88a2209584891056f987fd965b0ba",
        1,
        1033917596,
        1033917596,
        "Users",
    ),
    (
        10,
        4,
        2,
        "faaeb9be3bd98ed09f606fc16d144eca",
        2,
        1033920665,
        1072180405,
        "Anonymous User",
    ),
    (
        11,
        3,
        2,
        "5f7f0bdb3381d6a461d8c29ff53d908f",
        1,
        1033920746,
        1033920746,
        "Guest accounts",
    ),
    (
        12,
        3,
        2,
        "9b47a45624b023b1a76c73b74d704acf",
        1,
        1033920775,
        1033920775,
        "Administrator users",
    ),
    (
        13,
        3,
        2,
        "3c160cca19fb135f83bd02d911f04db2",
        1,
        1033920794,
        1033920794,
        "Editors",
    ),
    (
        14,
        4,
        2,
        "1bb4fe25487f05527efa8bfd394cecc7",
        3,
        1033920830,
        1301062024,
        "Administrator User",
    ),
    (
        41,
        1,
        3,
        "a6e35cbcb7cd6ae4b691f3eee30cd262",
        1,
        1060695457,
        1060695457,
        "Media",
    ),
    (
        42,
        3,
        2,
        "15b256dbea2ae72418ff5facc999e8f9",
        1,
        1072180330,
        1072180330,
        "Anonymous users",
    ),
    (
        49,
        1,
        3,
        "e7ff633c6b8e0fd3531e74c6e712bead",
        1,
        1080220197,
        1080220197,
        "Images",
    ),
    (
        50,
        1,
        3,
        "732a5acd01b51a6fe6eab448ad4138a9",
        1,
        1080220220,
        1080220220,
        "Files",
    ),
    (
        51,
        1,
        3,
        "09082deb98662a104f325aaa8c4933d3",
        1,
        1080220233,
        1080220233,
        "Multimedia",
    ),
];

/// (version record id, content, version no, created, modified)
const VERSIONS: &[(i64, i64, i64, i64, i64)] = &[
    (4, 4, 1, 0, 0),
    (439, 11, 1, 1033920737, 1033920746),
    (440, 12, 1, 1033920760, 1033920775),
    (441, 13, 1, 1033920786, 1033920794),
    (472, 41, 1, 1060695450, 1060695457),
    (473, 42, 1, 1072180278, 1072180330),
    (474, 10, 2, 1072180337, 1072180405),
    (488, 49, 1, 1080220181, 1080220197),
    (489, 50, 1, 1080220211, 1080220220),
    (490, 51, 1, 1080220225, 1080220233),
    (499, 14, 3, 1301061783, 1301062024),
    (506, 1, 9, 1448889045, 1448889046),
];

/// (field id, content, version, field definition, text of an ezstring; empty is no value)
const FIELDS: &[(i64, i64, i64, i64, &str)] = &[
    (1, 1, 9, 4, "Ibexa Platform"),
    (2, 1, 9, 119, ""),
    (7, 4, 1, 7, "Main group"),
    (8, 4, 1, 6, "Users"),
    (19, 10, 2, 8, "Anonymous"),
    (20, 10, 2, 9, "User"),
    (21, 10, 2, 12, ""),
    (22, 11, 1, 6, "Guest accounts"),
    (23, 11, 1, 7, ""),
    (24, 12, 1, 6, "Administrator users"),
    (25, 12, 1, 7, ""),
    (26, 13, 1, 6, "Editors"),
    (27, 13, 1, 7, ""),
    (28, 14, 3, 8, "Administrator"),
    (29, 14, 3, 9, "User"),
    (30, 14, 3, 12, ""),
    (98, 41, 1, 4, "Media"),
    (99, 41, 1, 119, ""),
    (100, 42, 1, 6, "Anonymous users"),
    (101, 42, 1, 7, "User group for the anonymous user"),
    (102, 1, 9, 155, "Ibexa Platform"),
    (103, 41, 1, 155, ""),
    (104, 1, 9, 156, ""),
    (105, 41, 1, 156, ""),
    (142, 49, 1, 4, "Images"),
    (143, 49, 1, 155, ""),
    (144, 49, 1, 119, ""),
    (145, 49, 1, 156, ""),
    (147, 50, 1, 4, "Files"),
    (148, 50, 1, 155, ""),
    (149, 50, 1, 119, ""),
    (150, 50, 1, 156, ""),
    (152, 51, 1, 4, "Multimedia"),
    (153, 51, 1, 155, ""),
    (154, 51, 1, 119, ""),
    (155, 51, 1, 156, ""),
    (177, 10, 2, 179, ""),
    (178, 14, 3, 179, ""),
    (179, 10, 2, 180, ""),
    (180, 14, 3, 180, ""),
];

/// Field definitions of rich text (stored as an empty DocBook section) and ezuser.
const RICHTEXT_DEFINITIONS: &[i64] = &[119, 156];
const USER_DEFINITION: i64 = 12;

/// (location, parent, content, path, depth, remote id, sort field)
type LocationRow = (i64, i64, i64, &'static str, i64, &'static str, &'static str);
const LOCATIONS: &[LocationRow] = &[
    (
        1,
        1,
        0,
        "/1/",
        0,
        "629709ba256fe317c3ddcee35453a96a",
        "PATH",
    ),
    (
        2,
        1,
        1,
        "/1/2/",
        1,
        "f3e90596361e31d496d4026eb624c983",
        "PRIORITY",
    ),
    (
        5,
        1,
        4,
        "/1/5/",
        1,
        "3f6d92f8044aed134f32153517850f5a",
        "PATH",
    ),
    (
        12,
        5,
        11,
        "/1/5/12/",
        2,
        "602dcf84765e56b7f999eaafd3821dd3",
        "PATH",
    ),
    (
        13,
        5,
        12,
        "/1/5/13/",
        2,
        "769380b7aa94541679167eab817ca893",
        "PATH",
    ),
    (
        14,
        5,
        13,
        "/1/5/14/",
        2,
        "f7dda2854fc68f7c8455d9cb14bd04a9",
        "PATH",
    ),
    (
        15,
        13,
        14,
        "/1/5/13/15/",
        3,
        "e5161a99f733200b9ed4e80f9c16187b",
        "PATH",
    ),
    (
        43,
        1,
        41,
        "/1/43/",
        1,
        "75c715a51699d2d309a924eca6a95145",
        "NAME",
    ),
    (
        44,
        5,
        42,
        "/1/5/44/",
        2,
        "4fdf0072da953bb276c0c7e0141c5c9b",
        "NAME",
    ),
    (
        45,
        44,
        10,
        "/1/5/44/45/",
        3,
        "2cf8343bee7b482bab82b269d8fecd76",
        "NAME",
    ),
    (
        51,
        43,
        49,
        "/1/43/51/",
        2,
        "1b26c0454b09bb49dfb1b9190ffd67cb",
        "NAME",
    ),
    (
        52,
        43,
        50,
        "/1/43/52/",
        2,
        "0b113a208f7890f9ad3c24444ff5988c",
        "NAME",
    ),
    (
        53,
        43,
        51,
        "/1/43/53/",
        2,
        "4f18b82c75f10aad476cae5adf98c11f",
        "NAME",
    ),
];

fn names(text: &str) -> String {
    serde_json::json!({ "eng-GB": text }).to_string()
}

/// The clean install's rows (`../shared/reference/clean-install-4.6.txt`).
async fn seed(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    for &(id, type_id, section, remote_id, version, published, modified, name) in CONTENTS {
        let main_location = LOCATIONS.iter().find(|l| l.2 == id).map(|l| l.0);
        crate::sql::exec(
            db,
            "INSERT INTO contents (id, content_type_id, section_id, owner_id, remote_id, main_language_code, always_available, current_version, status, published, modified, is_hidden, main_location_id, name) VALUES (?, ?, ?, 14, ?, 'eng-GB', ?, ?, 1, ?, ?, ?, ?, ?)",
            vec![id.into(), type_id.into(), section.into(), remote_id.into(), (type_id != 2).into(), version.into(), published.into(), modified.into(), false.into(), main_location.into(), name.into()],
        )
        .await?;
        crate::sql::exec(
            db,
            "INSERT INTO content_object_states (content_id, group_id, state_id) VALUES (?, 2, 1)",
            vec![id.into()],
        )
        .await?;
    }
    for &(id, content, version, created, modified) in VERSIONS {
        let name = CONTENTS
            .iter()
            .find(|c| c.0 == content)
            .map(|c| c.7)
            .unwrap_or_default();
        crate::sql::exec(
            db,
            "INSERT INTO content_versions (id, content_id, version_no, status, creator_id, created, modified, initial_language_code, language_codes, names) VALUES (?, ?, ?, 1, 14, ?, ?, 'eng-GB', 'eng-GB', ?)",
            vec![id.into(), content.into(), version.into(), created.into(), modified.into(), names(name).into()],
        )
        .await?;
    }
    for &(id, content, version, definition, text) in FIELDS {
        let (value, sort) = if RICHTEXT_DEFINITIONS.contains(&definition) {
            (serde_json::json!({ "xml": EMPTY_RICHTEXT }), String::new())
        } else if definition == USER_DEFINITION {
            let (login, email) = if content == 14 {
                ("admin", "admin@link.invalid")
            } else {
                ("anonymous", "anonymous@link.invalid")
            };
            (
                serde_json::json!({"hasStoredLogin": true, "contentId": content, "login": login, "email": email,
                    "passwordHash": null, "passwordHashType": null, "passwordUpdatedAt": null,
                    "enabled": true, "maxLogin": 10, "plainPassword": null}),
                String::new(),
            )
        } else if text.is_empty() {
            (serde_json::Value::Null, String::new())
        } else {
            (serde_json::json!(text), text.to_lowercase())
        };
        crate::sql::exec(
            db,
            "INSERT INTO content_fields (id, version_no, content_id, field_definition_id, language_code, value, sort_key_string, sort_key_int) VALUES (?, ?, ?, ?, 'eng-GB', ?, ?, 0)",
            vec![id.into(), version.into(), content.into(), definition.into(), value.to_string().into(), sort.into()],
        )
        .await?;
    }
    for &(id, parent, content, path, depth, remote_id, sort_field) in LOCATIONS {
        crate::sql::exec(
            db,
            "INSERT INTO locations (id, parent_id, content_id, path_string, depth, priority, is_hidden, is_invisible, remote_id, sort_field, sort_order) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, 'ASC')",
            vec![id.into(), parent.into(), content.into(), path.into(), depth.into(), false.into(), false.into(), remote_id.into(), sort_field.into()],
        )
        .await?;
    }
    crate::sql::exec(
        db,
        "INSERT INTO id_sequences (name, next_id) VALUES ('content_fields', 181)",
        vec![],
    )
    .await?;
    bump_sequences(
        manager,
        &[
            "contents",
            "content_versions",
            "content_relations",
            "locations",
        ],
    )
    .await
}
