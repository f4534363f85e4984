//! The checks the operations ask for: on one object (evaluated in memory, loading only the
//! facts a limitation needs) and on the rows of a list (a SQL condition).

use super::denied;
use super::evaluate::{Subject, Vote, can};
use super::filter::{Filter, Scope, filter};
use super::subject::{ContentFacts, LocationFacts, Target, fill};
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::shared::Shared;
use cairn_store::Connection;
use cairn_store::entity::{content, location};
use cairn_store::sql::stmt;
use sea_orm::Value;

impl Shared {
    /// Whether the caller may use `module`/`function` on `subject` with `targets`.
    pub(crate) async fn allows(
        &self,
        db: &impl Connection,
        cx: &Caller,
        (module, function): (&str, &str),
        mut subject: Subject,
        targets: &[Target],
    ) -> Result<bool> {
        loop {
            match can(&cx.grants, module, function, &subject, targets) {
                Vote::Granted => return Ok(true),
                Vote::Denied => return Ok(false),
                Vote::Need(missing) => match &mut subject {
                    Subject::Content(f) | Subject::NewContent(f) => fill(db, f, missing).await?,
                    // Only content subjects lack facts.
                    _ => return Ok(false),
                },
            }
        }
    }

    /// 401 (naming the module and function) unless the caller may use `module`/`function`
    /// on `subject` with `targets`.
    pub(crate) async fn authorize(
        &self,
        db: &impl Connection,
        cx: &Caller,
        policy: (&str, &str),
        subject: Subject,
        targets: &[Target],
    ) -> Result<()> {
        if self.allows(db, cx, policy, subject, targets).await? {
            Ok(())
        } else {
            Err(denied(policy.0, policy.1))
        }
    }

    /// The rows of a list on which the caller may use `module`/`function`.
    pub(crate) fn visible(
        &self,
        cx: &Caller,
        (module, function): (&str, &str),
        scope: Scope<'_>,
    ) -> Filter {
        filter(&cx.grants, module, function, scope)
    }
}

impl Shared {
    /// 401 unless the caller may use the operation's Policy on the content item `c`.
    pub(crate) async fn authorize_content(
        &self,
        db: &impl Connection,
        cx: &Caller,
        c: &content::Model,
        targets: &[Target],
    ) -> Result<()> {
        let policy = cx
            .op
            .policies
            .first()
            .copied()
            .unwrap_or(("content", "read"));
        self.authorize(
            db,
            cx,
            policy,
            Subject::Content(ContentFacts::of(c)),
            targets,
        )
        .await
    }

    /// Before the subtrees of `roots` go (deleted or trashed): 401 unless the caller may
    /// `content/remove` every content item in them, and 403 when the caller's own account
    /// or the last administrator's would go with them.
    pub(crate) async fn authorize_removal(
        &self,
        db: &impl Connection,
        cx: &Caller,
        roots: &[location::Model],
    ) -> Result<()> {
        if roots.is_empty() {
            return Ok(());
        }
        let under = |alias: &str| {
            let parts: Vec<String> = roots
                .iter()
                .map(|_| format!("{alias}.path_string LIKE ?"))
                .collect();
            format!("({})", parts.join(" OR "))
        };
        let patterns = || -> Vec<Value> {
            roots
                .iter()
                .map(|r| Value::from(format!("{}%", r.path_string)))
                .collect()
        };
        let filter = self.visible(
            cx,
            ("content", "remove"),
            Scope {
                content: "c",
                location: Some("l"),
                location_sections: true,
            },
        );
        if filter != Filter::All {
            let cond = filter.sql();
            let mut values = patterns();
            values.extend(cond.values);
            let sql = format!(
                "SELECT COUNT(*) FROM locations l JOIN contents c ON c.id = l.content_id \
                 WHERE {} AND NOT {}",
                under("l"),
                cond.sql
            );
            if count(db, &sql, values).await? > 0 {
                return Err(denied("content", "remove"));
            }
        }
        // Users that keep no Location once the subtrees go.
        let sql = format!(
            "SELECT DISTINCT u.id FROM users u JOIN locations l ON l.content_id = u.id \
             WHERE {} AND NOT EXISTS (SELECT 1 FROM locations k WHERE k.content_id = u.id \
             AND NOT {})",
            under("l"),
            under("k")
        );
        let mut values = patterns();
        values.extend(patterns());
        let removed = cairn_store::sql::ids(db, &sql, values).await?;
        if removed.is_empty() {
            return Ok(());
        }
        if removed.contains(&cx.user_id) {
            return Err(Error::Forbidden(
                "A user cannot delete its own account".into(),
            ));
        }
        // Administrators: users given a `*/*` Policy without limitation, directly or
        // through a group above them; one must remain outside the subtrees.
        let admin_subjects = "SELECT a.content_id FROM role_assignments a \
             JOIN roles r ON r.id = a.role_id AND r.status = 0 \
             JOIN policies p ON p.role_id = r.id AND p.module = '*' AND p.function = '*' \
             WHERE a.limitation_identifier IS NULL";
        let removed_marks = vec!["?"; removed.len()].join(", ");
        let sql = format!(
            "SELECT COUNT(*) FROM users u JOIN contents uc ON uc.id = u.id AND uc.status = ? \
             WHERE u.enabled = ? AND u.id NOT IN ({removed_marks}) AND (u.id IN ({admin_subjects}) \
             OR EXISTS (SELECT 1 FROM locations ul JOIN locations gl \
             ON ul.path_string LIKE gl.path_string || '%' \
             WHERE ul.content_id = u.id AND gl.content_id IN ({admin_subjects}) \
             AND NOT {} AND NOT {}))",
            under("ul"),
            under("gl")
        );
        let mut values: Vec<Value> = vec![content::PUBLISHED.into(), true.into()];
        values.extend(removed.iter().map(|id| Value::from(*id)));
        values.extend(patterns());
        values.extend(patterns());
        if count(db, &sql, values).await? == 0 {
            return Err(Error::Forbidden(
                "This would remove the last administrator's account".into(),
            ));
        }
        Ok(())
    }
}

async fn count(db: &impl Connection, sql: &str, values: Vec<Value>) -> Result<i64> {
    let row = db
        .query_one_raw(stmt(db.get_database_backend(), sql, values))
        .await?;
    Ok(row
        .and_then(|r| r.try_get_by_index::<i64>(0).ok())
        .unwrap_or(0))
}

impl Shared {
    /// 401 unless the caller may use `policy` on the content at the Location `l`, with `l`
    /// itself among the targets (the reference's `canUser(..., contentInfo, [location])`).
    pub(crate) async fn authorize_at(
        &self,
        db: &impl Connection,
        cx: &Caller,
        policy: (&str, &str),
        l: &location::Model,
        targets: Vec<Target>,
    ) -> Result<()> {
        if cx.grants.may_all(policy.0, policy.1) {
            return Ok(());
        }
        let c = match l.content_id {
            0 => None,
            id => Some(crate::content::rows::content(db, id).await?),
        };
        self.authorize_loaded(db, cx, policy, l, c.as_ref(), targets)
            .await
    }

    /// [`Self::authorize_at`] with the content item at `l` already read (None: the root).
    pub(crate) async fn authorize_loaded(
        &self,
        db: &impl Connection,
        cx: &Caller,
        policy: (&str, &str),
        l: &location::Model,
        c: Option<&content::Model>,
        mut targets: Vec<Target>,
    ) -> Result<()> {
        if cx.grants.may_all(policy.0, policy.1) {
            return Ok(());
        }
        let facts = match c {
            // The root Location holds no content item: it reads as the clean install's
            // root, in the standard Section, owned by the administrator.
            None => ContentFacts {
                content_type_id: 1,
                section_id: 1,
                owner_id: 14,
                ..Default::default()
            },
            Some(c) => ContentFacts::of(c),
        };
        targets.insert(
            0,
            Target::Location(LocationFacts {
                id: l.id,
                path_string: l.path_string.clone(),
                depth: l.depth,
                content_type_id: facts.content_type_id,
                owner_id: facts.owner_id,
            }),
        );
        self.authorize(db, cx, policy, Subject::Content(facts), &targets)
            .await
    }
}
