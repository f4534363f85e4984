//! Languages: the list and one by its code.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::LanguagesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use cairn_runtime::ETag;
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

/// The languages of `ids` (those that exist), from the kept list.
pub(crate) async fn by_ids(db: &impl Connection, ids: &[i64]) -> Result<Vec<Language>> {
    let all = all(db).await?;
    Ok(all
        .into_iter()
        .filter(|l| ids.contains(&l.id))
        .map(to_model)
        .collect())
}

fn to_model(l: language::Model) -> Language {
    Language {
        href: hrefs::load_language(&l.language_code),
        language_id: l.id,
        language_code: l.language_code,
        name: l.name,
    }
}

crate::services::family_service!(
    /// Implements the API of languages.
    LanguagesService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> LanguagesApi<B> for LanguagesService
{
    async fn list_languages(
        &self,
        _cx: &Caller,
        _req: ListLanguagesRequest,
    ) -> Result<ListLanguagesResponse> {
        let languages = all(self.db.conn()).await?;
        Ok(ListLanguagesResponse::Ok {
            body: LanguageList {
                href: hrefs::list_languages(),
                language: languages.into_iter().map(to_model).collect(),
            },
        })
    }

    async fn load_language(
        &self,
        _cx: &Caller,
        req: LoadLanguageRequest,
    ) -> Result<LoadLanguageResponse> {
        let l = (self.languages)
            .by_code(self.db.conn(), &req.language_code)
            .await?
            .ok_or_else(|| Error::not_found("Language", &req.language_code))?;
        let body = to_model(l);
        Ok(LoadLanguageResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }
}
