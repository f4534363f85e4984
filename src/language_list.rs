//! The languages as stored (their ids are the bits of language masks), and the list kept in
//! memory that every family reads them from.

use crate::error::Result;
use cairn_store::Connection;
use cairn_store::entity::language;
use cairn_store::read::Kept;
use sea_orm::{EntityTrait, QueryOrder};

/// The languages, kept in memory. A language is only ever added (`cairn language add`, the
/// start-up's languages), never changed or removed, so what is kept stays true; the list is
/// read again when a code or a language bit asked for is not in it (added since, perhaps by
/// another process).
#[derive(Default)]
pub(crate) struct Languages(std::sync::Mutex<std::sync::Arc<Vec<language::Model>>>);

impl Languages {
    /// Every language, by id, with each of `codes` and each bit of `mask` among them when the
    /// database has them.
    pub(crate) async fn covering(
        &self,
        db: &impl Connection,
        codes: &[&str],
        mask: i64,
    ) -> Result<std::sync::Arc<Vec<language::Model>>> {
        let kept = self.lock().clone();
        let bits = kept.iter().fold(0, |m, l| m | l.id);
        let covered = !kept.is_empty()
            && mask & !bits == 0
            && (codes.iter()).all(|c| kept.iter().any(|l| l.language_code == *c));
        if covered {
            return Ok(kept);
        }
        let read = std::sync::Arc::new(all(db).await?);
        *self.lock() = read.clone();
        Ok(read)
    }

    /// The language of `code`, if there is one.
    pub(crate) async fn by_code(
        &self,
        db: &impl Connection,
        code: &str,
    ) -> Result<Option<language::Model>> {
        let all = self.covering(db, &[code], 0).await?;
        Ok(all.iter().find(|l| l.language_code == code).cloned())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::sync::Arc<Vec<language::Model>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Every language, by id (the ids are the bits of language masks), as the database holds them.
pub(crate) async fn all(db: &impl Connection) -> Result<Vec<language::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || language::Entity::find().order_by_asc(language::Column::Id);
    Ok(KEPT.all(db, build, []).await?)
}
