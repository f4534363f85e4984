//! Roles, their drafts, Policies with their limitations, and Role assignments.
//!
//! A Role draft is a row of `roles` with `status` 1: a copy of the published Role named by
//! `original_id` (none for a Role created as a draft), with copies of its Policies; publishing
//! moves the draft's Policies onto the original Role. Policy ids come from the `policies` id
//! sequence (a draft copies several at once).

use super::{bump_sequences, ddl};
use sea_orm::ConnectionTrait;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE roles (
                id {pk},
                identifier TEXT NOT NULL,
                status BIGINT NOT NULL,
                original_id BIGINT
            );
            CREATE UNIQUE INDEX roles_identifier ON roles (identifier) WHERE status = 0;
            CREATE UNIQUE INDEX roles_original ON roles (original_id) WHERE original_id IS NOT NULL;
            CREATE INDEX roles_status ON roles (status, id);
            CREATE TABLE policies (
                id BIGINT NOT NULL PRIMARY KEY,
                role_id BIGINT NOT NULL,
                module TEXT NOT NULL,
                function TEXT NOT NULL,
                original_id BIGINT
            );
            CREATE INDEX policies_role ON policies (role_id, id);
            CREATE TABLE policy_limitations (
                id {pk},
                policy_id BIGINT NOT NULL,
                identifier TEXT NOT NULL,
                limitation_values TEXT NOT NULL
            );
            CREATE INDEX policy_limitations_policy ON policy_limitations (policy_id, id);
            CREATE TABLE role_assignments (
                id {pk},
                role_id BIGINT NOT NULL,
                content_id BIGINT NOT NULL,
                limitation_identifier TEXT NULL,
                limitation_values TEXT NULL
            );
            CREATE INDEX role_assignments_role ON role_assignments (role_id);
            CREATE INDEX role_assignments_content ON role_assignments (content_id, role_id)",
        )
        .await?;
        seed(manager).await
    }
}

/// The clean install's rows (`ezrole`, `ezpolicy`, `ezpolicy_limitation(_value)`,
/// `ezuser_role`); the limitation of the missing policy 329 is left out.
const SEED: &str = "
    INSERT INTO roles (id, identifier, status) VALUES
        (1, 'Anonymous', 0), (2, 'Administrator', 0), (3, 'Editor', 0), (4, 'Member', 0);
    INSERT INTO policies (id, role_id, module, function) VALUES
        (317, 3, 'content', '*'), (319, 3, 'user', 'login'), (328, 1, 'content', 'read'),
        (331, 1, 'user', 'login'), (332, 2, '*', '*'), (333, 4, 'content', 'read'),
        (334, 1, 'content', 'view_embed'), (340, 3, 'url', '*');
    INSERT INTO policy_limitations (id, policy_id, identifier, limitation_values) VALUES
        (251, 328, 'Section', '[\"1\"]'), (253, 331, 'SiteAccess', '[\"1766001124\"]'),
        (254, 333, 'Class', '[\"4\"]'), (255, 333, 'Owner', '[\"1\"]'),
        (256, 334, 'Class', '[\"5\",\"12\"]');
    INSERT INTO role_assignments (id, role_id, content_id, limitation_identifier, limitation_values) VALUES
        (28, 1, 11, NULL, NULL), (31, 1, 42, NULL, NULL),
        (32, 3, 13, 'Subtree', '[\"/1/2/\"]'), (33, 3, 13, 'Subtree', '[\"/1/43/\"]'),
        (34, 2, 12, NULL, NULL), (35, 4, 13, NULL, NULL);
    INSERT INTO id_sequences (name, next_id) VALUES ('policies', 341)";

async fn seed(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    for sql in SEED.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        db.execute_unprepared(sql).await?;
    }
    bump_sequences(
        manager,
        &["roles", "policy_limitations", "role_assignments"],
    )
    .await
}
