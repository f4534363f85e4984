//! URL aliases and URL wildcards, with the clean install's `ezurlalias_ml` rows.
//!
//! `url_aliases` is the reference's tree of path elements: a row is one text of one element
//! under its parent element (`parent` 0 at the root), keyed by `(parent, text_md5)` where
//! `text_md5` is the md5 of the lowercased text, so lookups are case-insensitive. Rows of one
//! element (its texts in several languages) share `id`; children hang below that id. A
//! history row (`is_original` false) has its own id and `link`s to the current element's id:
//! lookups continue below `link`, so old paths of a whole subtree keep resolving after a
//! rename or a move. `action` is `eznode:<location>`, `module:<resource>` or `nop:` (a
//! placeholder element). `lang_mask` holds the language ids (bit flags, as `languages.id`).

use super::ddl;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        ddl(
            manager,
            "CREATE TABLE url_aliases (
                parent BIGINT NOT NULL,
                text_md5 TEXT NOT NULL,
                id BIGINT NOT NULL,
                link BIGINT NOT NULL,
                text TEXT NOT NULL,
                action TEXT NOT NULL,
                lang_mask BIGINT NOT NULL,
                always_available BOOLEAN NOT NULL,
                is_original BOOLEAN NOT NULL,
                is_alias BOOLEAN NOT NULL,
                alias_redirects BOOLEAN NOT NULL,
                PRIMARY KEY (parent, text_md5)
            );
            CREATE INDEX url_aliases_action ON url_aliases (action, is_original);
            CREATE INDEX url_aliases_id ON url_aliases (id);
            CREATE TABLE url_wildcards (
                id {pk},
                source_url TEXT NOT NULL UNIQUE,
                destination_url TEXT NOT NULL,
                forward BOOLEAN NOT NULL
            )",
        )
        .await?;
        seed(manager).await
    }
}

/// The clean install's `ezurlalias_ml` (`../shared/reference/clean-install-4.6.txt`):
/// (id, parent, text, md5 of the lowercased text, action, reference lang_mask, is_original,
/// link). The reference's mask has bit 0 for "always available" and the language bits above.
type AliasRow = (
    i64,
    i64,
    &'static str,
    &'static str,
    &'static str,
    i64,
    bool,
    i64,
);
#[rustfmt::skip]
const ALIASES: &[AliasRow] = &[
    (1, 0, "", "d41d8cd98f00b204e9800998ecf8427e", "eznode:2", 3, true, 1),
    (2, 0, "Users", "9bc65c2abec141778ffaa729489f3e87", "eznode:5", 3, true, 2),
    (3, 0, "users2", "86425c35a33507d479f71ade53a669aa", "nop:", 1, false, 3),
    (4, 2, "Guest-accounts", "e57843d836e3af8ab611fde9e2139b3a", "eznode:12", 3, true, 4),
    (5, 2, "Administrator-users", "f89fad7f8a3abc8c09e1deb46a420007", "eznode:13", 3, true, 5),
    (6, 2, "Editors", "a147e136bfa717592f2bd70bd4b53b17", "eznode:14", 3, true, 6),
    (7, 3, "administrator_users2", "a7da338c20bf65f9f789c87296379c2a", "nop:", 1, false, 7),
    (8, 5, "Administrator-User", "5a9d7b0ec93173ef4fedee023209cb61", "eznode:15", 3, true, 8),
    (9, 0, "Media", "62933a2951ef01f4eafd9bdf4d3cd2f0", "eznode:43", 3, true, 9),
    (10, 2, "Anonymous-Users", "c2803c3fa1b0b5423237b4e018cae755", "eznode:44", 3, true, 10),
    (11, 3, "anonymous_users2", "505e93077a6dde9034ad97a14ab022b1", "nop:", 1, false, 11),
    (12, 10, "Anonymous-User", "ccb62ebca03a31272430bc414bd5cd5b", "eznode:45", 3, true, 12),
    (17, 0, "media2", "50e2736330de124f6edea9b008556fe6", "nop:", 1, false, 17),
    (18, 9, "Images", "59b514174bffe4ae402b3d63aad79fe0", "eznode:51", 3, true, 18),
    (19, 9, "Files", "45b963397aa40d4a0063e0d85e4fe7a1", "eznode:52", 3, true, 19),
    (20, 9, "Multimedia", "2e5bc8831f7ae6a29530e7f1bbf2de9c", "eznode:53", 3, true, 20),
    (26, 3, "guest_accounts", "70bb992820e73638731aa8de79b3329e", "eznode:12", 1, false, 4),
    (27, 3, "administrator_users", "aeb8609aa933b0899aa012c71139c58c", "eznode:13", 1, false, 5),
    (28, 7, "administrator_user", "a3cca2de936df1e2f805710399989971", "eznode:15", 0, false, 8),
    (29, 3, "editors", "a147e136bfa717592f2bd70bd4b53b17", "eznode:14", 1, false, 6),
    (30, 3, "anonymous_users", "e9e5ad0c05ee1a43715572e5cc545926", "eznode:44", 1, false, 10),
    (31, 11, "anonymous_user", "c593ec85293ecb0e02d50d4c5c6c20eb", "eznode:45", 1, false, 12),
    (32, 17, "images", "59b514174bffe4ae402b3d63aad79fe0", "eznode:51", 1, false, 18),
    (33, 17, "files", "45b963397aa40d4a0063e0d85e4fe7a1", "eznode:52", 1, false, 19),
    (34, 17, "multimedia", "2e5bc8831f7ae6a29530e7f1bbf2de9c", "eznode:53", 1, false, 20),
];

async fn seed(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    for &(id, parent, text, md5, action, mask, original, link) in ALIASES {
        crate::sql::exec(
            db,
            "INSERT INTO url_aliases (parent, text_md5, id, link, text, action, lang_mask, always_available, is_original, is_alias, alias_redirects) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            vec![
                parent.into(),
                md5.into(),
                id.into(),
                link.into(),
                text.into(),
                action.into(),
                (mask & !1).into(),
                (mask & 1 == 1).into(),
                original.into(),
                false.into(),
                true.into(),
            ],
        )
        .await?;
    }
    let next = ALIASES.iter().map(|a| a.0).max().unwrap_or(0) + 1;
    crate::sql::exec(
        db,
        "INSERT INTO id_sequences (name, next_id) VALUES ('url_aliases', ?)",
        vec![next.into()],
    )
    .await?;
    Ok(())
}
