//! Languages, Sections, users and sessions, Object state groups and states.

use super::{bump_sequences, ddl};
use crate::entity::{language, object_state, object_state_group, section, user};
use sea_orm::{ActiveValue::Set, EntityTrait};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE languages (
                id BIGINT NOT NULL PRIMARY KEY,
                language_code TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                enabled BOOLEAN NOT NULL
            );
            CREATE TABLE sections (
                id {pk},
                identifier TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL
            );
            CREATE TABLE users (
                id BIGINT NOT NULL PRIMARY KEY,
                login TEXT NOT NULL UNIQUE,
                email TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                password_updated_at BIGINT,
                enabled BOOLEAN NOT NULL,
                max_login BIGINT NOT NULL
            );
            CREATE INDEX users_email ON users (email);
            CREATE TABLE user_sessions (
                id TEXT NOT NULL PRIMARY KEY,
                user_id BIGINT NOT NULL,
                csrf_token TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_seen_at BIGINT NOT NULL
            );
            CREATE INDEX user_sessions_user ON user_sessions (user_id);
            CREATE INDEX user_sessions_last_seen ON user_sessions (last_seen_at);
            CREATE TABLE object_state_groups (
                id {pk},
                identifier TEXT NOT NULL UNIQUE,
                default_language_code TEXT NOT NULL,
                names TEXT NOT NULL,
                descriptions TEXT NOT NULL
            );
            CREATE TABLE object_states (
                id {pk},
                group_id BIGINT NOT NULL REFERENCES object_state_groups (id) ON DELETE CASCADE,
                identifier TEXT NOT NULL,
                priority BIGINT NOT NULL,
                default_language_code TEXT NOT NULL,
                names TEXT NOT NULL,
                descriptions TEXT NOT NULL,
                UNIQUE (group_id, identifier)
            )",
        )
        .await?;
        seed(manager).await
    }
}

fn names(text: &str) -> String {
    serde_json::json!({ "eng-GB": text }).to_string()
}

/// The clean install's rows (`../shared/reference/clean-install-4.6.txt`).
async fn seed(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    language::Entity::insert(language::ActiveModel {
        id: Set(2),
        language_code: Set("eng-GB".into()),
        name: Set("English (United Kingdom)".into()),
        enabled: Set(true),
    })
    .exec(db)
    .await?;
    let sections = [
        (1, "standard", "Standard"),
        (2, "users", "Users"),
        (3, "media", "Media"),
    ];
    section::Entity::insert_many(sections.map(|(id, identifier, name)| section::ActiveModel {
        id: Set(id),
        identifier: Set(identifier.into()),
        name: Set(name.into()),
    }))
    .exec(db)
    .await?;
    // The anonymous user cannot log in: its password is random and never shown.
    let anonymous_password: String = {
        use rand::Rng;
        rand::rng()
            .sample_iter(rand::distr::Alphanumeric)
            .take(32)
            .map(char::from)
            .collect()
    };
    let users = [
        (
            10,
            "anonymous",
            "anonymous@link.invalid",
            anonymous_password.as_str(),
        ),
        (14, "admin", "admin@link.invalid", "publish"),
    ];
    for (id, login, email, password) in users {
        user::Entity::insert(user::ActiveModel {
            id: Set(id),
            login: Set(login.into()),
            email: Set(email.into()),
            password_hash: Set(crate::password::hash(password)),
            password_updated_at: Set(None),
            enabled: Set(true),
            max_login: Set(10),
            // A column of a later migration.
            ..Default::default()
        })
        .exec(db)
        .await?;
    }
    object_state_group::Entity::insert(object_state_group::ActiveModel {
        id: Set(2),
        identifier: Set("ez_lock".into()),
        default_language_code: Set("eng-GB".into()),
        names: Set(names("Lock")),
        descriptions: Set(names("")),
    })
    .exec(db)
    .await?;
    let states = [
        (1, "not_locked", 0, "Not locked"),
        (2, "locked", 1, "Locked"),
    ];
    object_state::Entity::insert_many(states.map(|(id, identifier, priority, name)| {
        object_state::ActiveModel {
            id: Set(id),
            group_id: Set(2),
            identifier: Set(identifier.into()),
            priority: Set(priority),
            default_language_code: Set("eng-GB".into()),
            names: Set(names(name)),
            descriptions: Set(names("")),
        }
    }))
    .exec(db)
    .await?;
    bump_sequences(
        manager,
        &["sections", "object_state_groups", "object_states"],
    )
    .await
}
