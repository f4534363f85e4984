//! Languages: the list and one by its code.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::LanguagesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::services::Services;
use cairn_runtime::ETag;
use cairn_store::entity::language;
use cairn_store::sql::Kept;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

/// Every language, by id (the ids are the bits of language masks).
pub(crate) async fn all(db: &impl ConnectionTrait) -> Result<Vec<language::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || language::Entity::find().order_by_asc(language::Column::Id);
    Ok(KEPT.all(db, build, []).await?)
}

/// The language of `code`, if there is one.
pub(crate) async fn by_code(
    db: &impl ConnectionTrait,
    code: &str,
) -> Result<Option<language::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || {
        (language::Entity::find())
            .filter(language::Column::LanguageCode.eq(""))
            .limit(1)
    };
    Ok(KEPT.one(db, build, [code.into()]).await?)
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

impl LanguagesApi<Services> for LanguagesService {
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
        let l = by_code(self.db.conn(), &req.language_code)
            .await?
            .ok_or_else(|| Error::not_found("Language", &req.language_code))?;
        let body = to_model(l);
        Ok(LoadLanguageResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }
}
