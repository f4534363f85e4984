//! The resource families not implemented yet. Every operation of each answers 501 Not
//! Implemented with an `ErrorMessage`; this file is the one place that says which.

use crate::api::model::MoveSubtreeResponse;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::service::Service;
use cairn_store::entity::location;
use sea_orm::ConnectionTrait;

crate::api::traits::not_implemented_bookmarks!(Service, Error::not_implemented);
crate::api::traits::not_implemented_roles!(Service, Error::not_implemented);
crate::api::traits::not_implemented_trash!(Service, Error::not_implemented);
crate::api::traits::not_implemented_url_aliases!(Service, Error::not_implemented);
crate::api::traits::not_implemented_users!(Service, Error::not_implemented);
crate::api::traits::not_implemented_views!(Service, Error::not_implemented);

/// Parts of implemented operations that wait for their family.
impl Service {
    /// `MOVE` of a Location to the Trash: with the Trash family.
    pub(crate) async fn trash_location(
        &self,
        _cx: &Caller,
        _path: &str,
    ) -> Result<MoveSubtreeResponse> {
        Err(Error::not_implemented("moveSubtree (to the Trash)"))
    }

    /// `GET /content/locations?urlAlias=`: with the URL alias family.
    pub(crate) async fn location_of_url_alias(
        &self,
        _db: &impl ConnectionTrait,
        _alias: &str,
    ) -> Result<location::Model> {
        Err(Error::not_implemented("redirectLocation (urlAlias)"))
    }
}
