//! Content type groups, content types (defined and draft) and their Field definitions, with
//! the clean install's groups 1-3 and types folder (1), article (2), user_group (3), user (4),
//! image (5) and file (12).

use super::{bump_sequences, ddl};
use crate::entity::{
    content_type, content_type_group, content_type_group_link, field_definition, id_sequence,
};
use sea_orm::{ActiveValue::Set, EntityTrait};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE id_sequences (
                name TEXT NOT NULL PRIMARY KEY,
                next_id BIGINT NOT NULL
            );
            CREATE TABLE content_type_groups (
                id {pk},
                identifier TEXT NOT NULL UNIQUE,
                created BIGINT NOT NULL,
                modified BIGINT NOT NULL,
                creator_id BIGINT NOT NULL,
                modifier_id BIGINT NOT NULL
            );
            CREATE TABLE content_types (
                id BIGINT NOT NULL,
                status BIGINT NOT NULL,
                identifier TEXT NOT NULL,
                remote_id TEXT NOT NULL,
                names TEXT NOT NULL,
                descriptions TEXT NOT NULL,
                name_schema TEXT,
                url_alias_schema TEXT,
                is_container BOOLEAN NOT NULL,
                main_language_code TEXT NOT NULL,
                default_always_available BOOLEAN NOT NULL,
                default_sort_field TEXT NOT NULL,
                default_sort_order TEXT NOT NULL,
                created BIGINT NOT NULL,
                modified BIGINT NOT NULL,
                creator_id BIGINT NOT NULL,
                modifier_id BIGINT NOT NULL,
                PRIMARY KEY (id, status)
            );
            CREATE INDEX content_types_identifier ON content_types (identifier);
            CREATE INDEX content_types_remote_id ON content_types (remote_id);
            CREATE TABLE content_type_group_links (
                content_type_id BIGINT NOT NULL,
                status BIGINT NOT NULL,
                group_id BIGINT NOT NULL REFERENCES content_type_groups (id),
                PRIMARY KEY (content_type_id, status, group_id)
            );
            CREATE INDEX content_type_group_links_group ON content_type_group_links (group_id);
            CREATE TABLE field_definitions (
                id BIGINT NOT NULL,
                status BIGINT NOT NULL,
                content_type_id BIGINT NOT NULL,
                identifier TEXT NOT NULL,
                field_type TEXT NOT NULL,
                field_group TEXT NOT NULL,
                position BIGINT NOT NULL,
                is_translatable BOOLEAN NOT NULL,
                is_required BOOLEAN NOT NULL,
                is_info_collector BOOLEAN NOT NULL,
                is_searchable BOOLEAN NOT NULL,
                is_thumbnail BOOLEAN NOT NULL,
                names TEXT NOT NULL,
                descriptions TEXT NOT NULL,
                default_value TEXT NOT NULL,
                field_settings TEXT NOT NULL,
                validator_configuration TEXT NOT NULL,
                PRIMARY KEY (id, status)
            );
            CREATE INDEX field_definitions_type ON field_definitions (content_type_id, status)",
        )
        .await?;
        seed(manager).await
    }
}

fn names(text: &str) -> String {
    serde_json::json!({ "eng-GB": text }).to_string()
}

/// (id, identifier, remote id, name, name schema, container, always available, created, modified, group)
type TypeRow = (
    i64,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    bool,
    bool,
    i64,
    i64,
    i64,
);
const TYPES: &[TypeRow] = &[
    (
        1,
        "folder",
        "a3d405b81be900468eb153d774f4f0d2",
        "Folder",
        "<short_name|name>",
        true,
        true,
        1024392098,
        1448831672,
        1,
    ),
    (
        2,
        "article",
        "c15b600eb9198b1924063b5a68758232",
        "Article",
        "<short_title|title>",
        true,
        false,
        1024392098,
        1082454989,
        1,
    ),
    (
        3,
        "user_group",
        "25b4268cdcd01921b808a0d854b877ef",
        "User group",
        "<name>",
        true,
        true,
        1024392098,
        1048494743,
        2,
    ),
    (
        4,
        "user",
        "40faa822edc579b02c25f6bb7beec3ad",
        "User",
        "<first_name> <last_name>",
        false,
        true,
        1024392098,
        1082018364,
        2,
    ),
    (
        5,
        "image",
        "f6df12aa74e36230eb675f364fccd25a",
        "Image",
        "<name>",
        false,
        true,
        1031484992,
        1048494784,
        3,
    ),
    (
        12,
        "file",
        "637d58bfddf164627bdfd265733280a0",
        "File",
        "<name>",
        false,
        true,
        1052385472,
        1052385669,
        3,
    ),
];

/// (type, id, identifier, field type, position, required, searchable, translatable, thumbnail, name)
type FieldRow = (
    i64,
    i64,
    &'static str,
    &'static str,
    i64,
    bool,
    bool,
    bool,
    bool,
    &'static str,
);
const FIELDS: &[FieldRow] = &[
    (1, 4, "name", "string", 1, true, true, true, false, "Name"),
    (
        1,
        155,
        "short_name",
        "string",
        2,
        false,
        true,
        true,
        false,
        "Short name",
    ),
    (
        1,
        119,
        "short_description",
        "richtext",
        3,
        false,
        true,
        true,
        false,
        "Short description",
    ),
    (
        1,
        156,
        "description",
        "richtext",
        4,
        false,
        true,
        true,
        false,
        "Description",
    ),
    (2, 1, "title", "string", 1, true, true, true, true, "Title"),
    (
        2,
        152,
        "short_title",
        "string",
        2,
        false,
        true,
        true,
        false,
        "Short title",
    ),
    (
        2, 153, "author", "author", 3, false, false, true, false, "Author",
    ),
    (
        2, 120, "intro", "richtext", 4, true, true, true, false, "Intro",
    ),
    (
        2, 121, "body", "richtext", 5, false, true, true, false, "Body",
    ),
    (
        2,
        123,
        "enable_comments",
        "boolean",
        6,
        false,
        false,
        false,
        false,
        "Enable comments",
    ),
    (
        2,
        154,
        "image",
        "objectrelation",
        7,
        false,
        true,
        true,
        false,
        "Image",
    ),
    (3, 6, "name", "string", 1, true, true, true, false, "Name"),
    (
        3,
        7,
        "description",
        "string",
        2,
        false,
        true,
        true,
        false,
        "Description",
    ),
    (
        4,
        8,
        "first_name",
        "string",
        1,
        true,
        true,
        true,
        false,
        "First name",
    ),
    (
        4,
        9,
        "last_name",
        "string",
        2,
        true,
        true,
        true,
        false,
        "Last name",
    ),
    (
        4,
        12,
        "user_account",
        "user",
        3,
        true,
        false,
        false,
        false,
        "User account",
    ),
    (
        4,
        179,
        "signature",
        "text",
        4,
        false,
        true,
        true,
        false,
        "Signature",
    ),
    (
        4, 180, "image", "image", 5, false, false, true, true, "Image",
    ),
    (5, 116, "name", "string", 1, true, true, true, false, "Name"),
    (
        5, 117, "caption", "richtext", 2, false, true, true, false, "Caption",
    ),
    (
        5, 118, "image", "image", 3, false, true, true, true, "Image",
    ),
    (
        12, 146, "name", "string", 1, true, true, true, false, "Name",
    ),
    (
        12,
        147,
        "description",
        "richtext",
        2,
        false,
        true,
        true,
        false,
        "Description",
    ),
    (
        12,
        148,
        "file",
        "binaryfile",
        3,
        true,
        false,
        true,
        false,
        "File",
    ),
];

/// The clean install's rows (`../shared/reference/clean-install-4.6.txt`).
async fn seed(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let groups = [
        (1, "Content", 1031216928, 1033922106),
        (2, "Users", 1031216941, 1033922113),
        (3, "Media", 1032009743, 1033922120),
    ];
    content_type_group::Entity::insert_many(groups.map(|(id, identifier, created, modified)| {
        content_type_group::ActiveModel {
            id: Set(id),
            identifier: Set(identifier.into()),
            created: Set(created),
            modified: Set(modified),
            creator_id: Set(14),
            modifier_id: Set(14),
        }
    }))
    .exec(db)
    .await?;
    for &(id, identifier, remote_id, name, schema, container, always, created, modified, group) in
        TYPES
    {
        content_type::Entity::insert(content_type::ActiveModel {
            id: Set(id),
            status: Set(content_type::DEFINED),
            identifier: Set(identifier.into()),
            remote_id: Set(remote_id.into()),
            names: Set(names(name)),
            descriptions: Set("{}".into()),
            name_schema: Set(Some(schema.into())),
            url_alias_schema: Set(None),
            is_container: Set(container),
            main_language_code: Set("eng-GB".into()),
            default_always_available: Set(always),
            default_sort_field: Set("PATH".into()),
            default_sort_order: Set("ASC".into()),
            created: Set(created),
            modified: Set(modified),
            creator_id: Set(14),
            modifier_id: Set(14),
        })
        .exec(db)
        .await?;
        content_type_group_link::Entity::insert(content_type_group_link::ActiveModel {
            content_type_id: Set(id),
            status: Set(content_type::DEFINED),
            group_id: Set(group),
        })
        .exec(db)
        .await?;
    }
    for &(
        type_id,
        id,
        identifier,
        field_type,
        position,
        required,
        searchable,
        translatable,
        thumbnail,
        name,
    ) in FIELDS
    {
        let validators = if field_type == "string" {
            r#"{"StringLengthValidator":{"maxStringLength":255}}"#
        } else {
            "{}"
        };
        let default = if identifier == "title" {
            r#""New article""#
        } else {
            "null"
        };
        field_definition::Entity::insert(field_definition::ActiveModel {
            id: Set(id),
            status: Set(content_type::DEFINED),
            content_type_id: Set(type_id),
            identifier: Set(identifier.into()),
            field_type: Set(field_type.into()),
            field_group: Set(String::new()),
            position: Set(position),
            is_translatable: Set(translatable),
            is_required: Set(required),
            is_info_collector: Set(false),
            is_searchable: Set(searchable),
            is_thumbnail: Set(thumbnail),
            names: Set(names(name)),
            descriptions: Set("{}".into()),
            default_value: Set(default.into()),
            field_settings: Set("{}".into()),
            validator_configuration: Set(validators.into()),
        })
        .exec(db)
        .await?;
    }
    id_sequence::Entity::insert_many([("content_types", 13), ("field_definitions", 181)].map(
        |(name, next)| id_sequence::ActiveModel {
            name: Set(name.into()),
            next_id: Set(next),
        },
    ))
    .exec(db)
    .await?;
    bump_sequences(manager, &["content_type_groups"]).await
}
