//! Languages: the list and one by its code.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::LanguagesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::services::Services;
use cairn_runtime::ETag;
use cairn_store::entity::language;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};

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
        let languages = language::Entity::find()
            .order_by_asc(language::Column::Id)
            .all(self.db.conn())
            .await?;
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
        let l = language::Entity::find()
            .filter(language::Column::LanguageCode.eq(req.language_code.as_str()))
            .one(self.db.conn())
            .await?
            .ok_or_else(|| Error::not_found("Language", &req.language_code))?;
        let body = to_model(l);
        Ok(LoadLanguageResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }
}
