//! Languages: the list and one by its code.

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::LanguagesApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::language_list::all;
use cairn_runtime::ETag;
use cairn_store::Connection;
use cairn_store::entity::language;

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
        cx: &Caller,
        _req: ListLanguagesRequest,
    ) -> Result<ListLanguagesResponse> {
        let languages = all(cx.reader()).await?;
        Ok(ListLanguagesResponse::Ok {
            body: LanguageList {
                href: hrefs::list_languages(),
                language: languages.into_iter().map(to_model).collect(),
            },
        })
    }

    async fn load_language(
        &self,
        cx: &Caller,
        req: LoadLanguageRequest,
    ) -> Result<LoadLanguageResponse> {
        let l = (self.languages)
            .by_code(cx.reader(), &req.language_code)
            .await?
            .ok_or_else(|| Error::not_found("Language", &req.language_code))?;
        let body = to_model(l);
        Ok(LoadLanguageResponse::Ok {
            etag: ETag::of(&body),
            body,
        })
    }
}
