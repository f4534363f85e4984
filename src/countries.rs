//! The ISO 3166 country list (`GET /services/countries`).

use crate::api::model::*;
use crate::api::traits::CountriesApi;
use crate::auth::Caller;
use crate::countries_data::COUNTRIES;
use crate::error::Result;
use cairn_runtime::ETag;

/// The list, built once at start-up.
pub fn country_list() -> CountryList {
    CountryList {
        country: COUNTRIES
            .iter()
            .map(|(name, alpha2, alpha3, idc)| Country {
                id: alpha2.to_string(),
                name: name.to_string(),
                alpha2: alpha2.to_string(),
                alpha3: alpha3.to_string(),
                idc: *idc,
            })
            .collect(),
    }
}

crate::services::family_service!(
    /// Implements the API of the country list.
    CountriesService {
    countries: (CountryList, ETag) = {
        let list = country_list();
        let etag = ETag::of(&list);
        (list, etag)
    },
}
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> CountriesApi<B> for CountriesService
{
    async fn load_country_list(
        &self,
        _cx: &Caller,
        _req: LoadCountryListRequest,
    ) -> Result<LoadCountryListResponse> {
        let (body, etag) = &self.countries;
        Ok(LoadCountryListResponse::Ok {
            body: body.clone(),
            etag: etag.clone(),
        })
    }
}
