//! The operator's commands (`cairn user password|grant-admin`, `cairn language add|list`, `cairn check`,
//! `cairn backup`, `cairn import`, `cairn images render`): each works on the configured database, with the server stopped or
//! running.

mod check;
mod images;
mod import;

pub use check::{Problem, check};
pub use images::{Rendered, render_images};
pub use import::{Import, import};

use cairn_store::Db;
use cairn_store::entity::{role, role_assignment, user, user_session};
use cairn_store::sql::stmt;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, IntoActiveModel,
    QueryFilter,
};

/// Sets the password of the user `login` and ends its sessions.
pub async fn set_password(db: &Db, login: &str, password: &str) -> anyhow::Result<()> {
    if password.chars().count() < 8 {
        anyhow::bail!("the password needs at least 8 characters");
    }
    let hash = crate::accounts::hash_password(password.to_string())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let change = cairn_store::events::Change::by_server("setPassword", "/user/users");
    db.write(change, async |tx| {
        let u = user::Entity::find()
            .filter(user::Column::Login.eq(login))
            .one(tx)
            .await?
            .ok_or_else(|| anyhow::anyhow!("there is no user with the login '{login}'"))?;
        let id = u.id;
        let mut active = u.into_active_model();
        active.password_hash = Set(hash);
        active.password_updated_at = Set(Some(chrono::Utc::now().timestamp()));
        cairn_store::write::update(tx, active).await?;
        user_session::Entity::delete_many()
            .filter(user_session::Column::UserId.eq(id))
            .exec(tx)
            .await?;
        Ok::<_, anyhow::Error>(())
    })
    .await
}

/// Adds the language `code` (`pol-PL`) named `name`; an existing code is an error.
pub async fn add_language(db: &Db, code: &str, name: &str) -> anyhow::Result<()> {
    if crate::content::check_language_code(code).is_err() {
        anyhow::bail!("'{code}' is not a language code such as pol-PL");
    }
    if name.trim().is_empty() {
        anyhow::bail!("the language needs a name");
    }
    let known = crate::language_list::all(db.conn()).await?;
    if known.iter().any(|l| l.language_code == code) {
        anyhow::bail!("the language {code} exists already");
    }
    db.ensure_languages(&[(code.to_string(), name.trim().to_string())])
        .await?;
    Ok(())
}

/// The languages: (code, name, enabled), by id.
pub async fn languages(db: &Db) -> anyhow::Result<Vec<(String, String, bool)>> {
    Ok(crate::language_list::all(db.conn())
        .await?
        .into_iter()
        .map(|l| (l.language_code, l.name, l.enabled))
        .collect())
}

/// Writes a consistent copy of the SQLite database to `file` while it may be in use.
pub async fn backup(db: &Db, file: &std::path::Path) -> anyhow::Result<()> {
    if db.backend() != DbBackend::Sqlite {
        anyhow::bail!(
            "cairn backup copies SQLite databases; back a PostgreSQL database up with pg_dump"
        );
    }
    if file.exists() {
        anyhow::bail!("{} exists already", file.display());
    }
    let path = file
        .to_str()
        .ok_or_else(|| anyhow::anyhow!("the backup path is not UTF-8"))?;
    db.conn()
        .execute_raw(stmt(DbBackend::Sqlite, "VACUUM INTO ?", [path.into()]))
        .await?;
    Ok(())
}

/// The identifier of the clean install's Role of unlimited access.
const ADMINISTRATOR_ROLE: &str = "Administrator";

/// Makes the user `login` an administrator: the Administrator Role (created when gone, its
/// `*/*` Policy without limitations added when it has none) assigned to it without limitation,
/// and its account enabled, in one transaction with its event. Says what it did.
pub async fn grant_admin(db: &Db, login: &str) -> anyhow::Result<String> {
    let change = cairn_store::events::Change::by_server("grantAdmin", "/user/roles");
    db.write(change, async |tx| {
        let u = user::Entity::find()
            .filter(user::Column::Login.eq(login))
            .one(tx)
            .await?
            .ok_or_else(|| anyhow::anyhow!("there is no user with the login '{login}'"))?;
        let mut done = Vec::new();
        let role = match role::Entity::find()
            .filter(role::Column::Identifier.eq(ADMINISTRATOR_ROLE))
            .filter(role::Column::Status.eq(crate::grants::policies::PUBLISHED))
            .one(tx)
            .await?
        {
            Some(r) => r,
            None => {
                done.push("the Administrator Role was created");
                crate::roles::store::insert_role(
                    tx,
                    ADMINISTRATOR_ROLE.into(),
                    crate::grants::policies::PUBLISHED,
                    None,
                )
                .await?
            }
        };
        let policies = crate::grants::policies::policies_of(tx, &[role.id]).await?;
        if !policies
            .iter()
            .any(|p| p.p.module == "*" && p.p.function == "*" && p.lims.is_empty())
        {
            done.push("its '*/*' Policy was restored");
            crate::roles::store::insert_policies(
                tx,
                role.id,
                vec![("*".into(), "*".into(), None, vec![])],
            )
            .await?;
        }
        let assigned = role_assignment::Entity::find()
            .filter(role_assignment::Column::RoleId.eq(role.id))
            .filter(role_assignment::Column::ContentId.eq(u.id))
            .filter(role_assignment::Column::LimitationIdentifier.is_null())
            .one(tx)
            .await?;
        if assigned.is_none() {
            done.push("the Administrator Role was assigned to it");
            role_assignment::Entity::insert(role_assignment::ActiveModel {
                role_id: Set(role.id),
                content_id: Set(u.id),
                limitation_identifier: Set(None),
                limitation_values: Set(None),
                ..Default::default()
            })
            .exec_without_returning(tx)
            .await?;
        }
        if !u.enabled {
            done.push("its account was enabled");
            let mut active = u.into_active_model();
            active.enabled = Set(true);
            cairn_store::write::update(tx, active).await?;
        }
        if done.is_empty() {
            done.push("it was one already");
        }
        Ok::<_, anyhow::Error>(done.join(", "))
    })
    .await
}
