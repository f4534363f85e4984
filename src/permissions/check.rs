//! The checks the operations ask for: on one object (evaluated in memory, loading only the
//! facts a limitation needs) and on the rows of a list (a SQL condition).

use super::Asker;
use super::denied;
use super::evaluate::{Subject, Vote, can};
use super::filter::{Filter, Scope, filter};
use super::subject::{ContentFacts, LocationFacts, Target, fill};
use crate::error::{Error, Result};
use crate::shared::Shared;
use cairn_store::Connection;
use cairn_store::entity::{content, content_version, location};
use cairn_store::sql::stmt;
use sea_orm::Value;

impl Shared {
    /// Whether the caller may use `module`/`function` on `subject` with `targets`.
    pub(crate) async fn allows(
        &self,
        db: &impl Connection,
        cx: &impl Asker,
        (module, function): (&str, &str),
        mut subject: Subject,
        targets: &[Target],
    ) -> Result<bool> {
        loop {
            match can(cx.grants(), module, function, &subject, targets) {
                Vote::Granted => return Ok(true),
                Vote::Denied => return Ok(false),
                Vote::Need(missing) => match &mut subject {
                    Subject::Content(f) | Subject::NewContent(f) => {
                        fill(db, f, missing, targets).await?
                    }
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
        cx: &impl Asker,
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
        cx: &impl Asker,
        (module, function): (&str, &str),
        scope: Scope<'_>,
    ) -> Filter {
        filter(cx.grants(), module, function, scope)
    }
}

impl Shared {
    /// 401 unless the caller may use the operation's Policy on the content item `c`.
    pub(crate) async fn authorize_content(
        &self,
        db: &impl Connection,
        cx: &impl Asker,
        c: &content::Model,
        targets: &[Target],
    ) -> Result<()> {
        let policy = cx.policy().unwrap_or(("content", "read"));
        self.authorize(
            db,
            cx,
            policy,
            Subject::Content(ContentFacts::of(c)),
            targets,
        )
        .await
    }

    /// 401 unless the caller may use the operation's Policy on version `v` of `c` (the
    /// reference's `VersionInfo`: its status and initial language count).
    pub(crate) async fn authorize_version(
        &self,
        db: &impl Connection,
        cx: &impl Asker,
        c: &content::Model,
        v: &content_version::Model,
        targets: &[Target],
    ) -> Result<()> {
        let policy = cx.policy().unwrap_or(("content", "read"));
        let facts = Subject::Content(ContentFacts::of_version(c, v));
        self.authorize(db, cx, policy, facts, targets).await
    }

    /// Before the subtrees of `roots` go (deleted or trashed): 401 unless the caller may
    /// `content/remove` every content item in them, and 403 when the caller's own account
    /// would go with them.
    pub(crate) async fn authorize_removal(
        &self,
        db: &impl Connection,
        cx: &impl Asker,
        roots: &[location::Model],
    ) -> Result<()> {
        if roots.is_empty() {
            return Ok(());
        }
        self.authorize_whole(db, cx, ("content", "remove"), roots)
            .await?;
        let under = |alias: &str| subtrees_sql(alias, roots);
        let patterns = || subtree_patterns(roots);
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
        if removed.contains(&cx.grants().user_id) {
            return Err(Error::Forbidden(
                "A user cannot delete its own account".into(),
            ));
        }
        Ok(())
    }

    /// 401 unless the caller may use `policy` on every content item in the subtrees of
    /// `roots` (the reference's search for one it may not).
    pub(crate) async fn authorize_whole(
        &self,
        db: &impl Connection,
        cx: &impl Asker,
        policy: (&str, &str),
        roots: &[location::Model],
    ) -> Result<()> {
        let filter = self.visible(
            cx,
            policy,
            Scope {
                content: "c",
                location: Some("l"),
                location_sections: true,
            },
        );
        let cond = match filter {
            Filter::All => return Ok(()),
            Filter::Nothing => return Err(denied(policy.0, policy.1)),
            Filter::Only(cond) => cond,
        };
        let mut values = subtree_patterns(roots);
        values.extend(cond.values);
        let sql = format!(
            "SELECT COUNT(*) FROM locations l JOIN contents c ON c.id = l.content_id \
             WHERE {} AND NOT {}",
            subtrees_sql("l", roots),
            cond.sql
        );
        if count(db, &sql, values).await? > 0 {
            return Err(denied(policy.0, policy.1));
        }
        Ok(())
    }
}

/// `(alias.path_string LIKE ? OR ...)`, one pattern per root (see [`subtree_patterns`]).
fn subtrees_sql(alias: &str, roots: &[location::Model]) -> String {
    let parts: Vec<String> = roots
        .iter()
        .map(|_| format!("{alias}.path_string LIKE ?"))
        .collect();
    format!("({})", parts.join(" OR "))
}

fn subtree_patterns(roots: &[location::Model]) -> Vec<Value> {
    roots
        .iter()
        .map(|r| Value::from(format!("{}%", r.path_string)))
        .collect()
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
        cx: &impl Asker,
        policy: (&str, &str),
        l: &location::Model,
        targets: Vec<Target>,
    ) -> Result<()> {
        if cx.grants().may_all(policy.0, policy.1) {
            return Ok(());
        }
        let c = match l.content_id {
            0 => None,
            id => Some(crate::content_rows::content(db, id).await?),
        };
        self.authorize_loaded(db, cx, policy, l, c.as_ref(), targets)
            .await
    }

    /// [`Self::authorize_at`] with the content item at `l` already read (None: the root).
    pub(crate) async fn authorize_loaded(
        &self,
        db: &impl Connection,
        cx: &impl Asker,
        policy: (&str, &str),
        l: &location::Model,
        c: Option<&content::Model>,
        mut targets: Vec<Target>,
    ) -> Result<()> {
        if cx.grants().may_all(policy.0, policy.1) {
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
                content_id: l.content_id,
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
