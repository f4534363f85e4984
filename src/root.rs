//! The Root resource: the API's entry links, in the reference's order.

use crate::api::model::*;
use crate::api::traits::RootApi;
use crate::auth::Caller;
use crate::error::Result;
use cairn_runtime::ETag;

/// The links, built once at start-up.
pub fn root() -> Root {
    let s = |p: &str| p.to_string();
    Root {
        content: s("/content/objects"),
        content_by_remote_id: s("/content/objects{?remoteId}"),
        content_types: s("/content/types"),
        content_type_by_identifier: s("/content/types{?identifier}"),
        content_type_groups: s("/content/typegroups"),
        content_type_group_by_identifier: s("/content/typegroups{?identifier}"),
        users: s("/user/users"),
        users_by_role_id: s("/user/users{?roleId}"),
        users_by_remote_id: s("/user/users{?remoteId}"),
        users_by_email: s("/user/users{?email}"),
        users_by_login: s("/user/users{?login}"),
        roles: s("/user/roles"),
        root_location: s("/content/locations/1/2"),
        root_user_group: s("/user/groups/1/5"),
        root_media_folder: s("/content/locations/1/43"),
        location_by_remote_id: s("/content/locations{?remoteId}"),
        location_by_path: s("/content/locations{?locationPath}"),
        trash: s("/content/trash"),
        sections: s("/content/sections"),
        views: s("/views"),
        object_state_groups: s("/content/objectstategroups"),
        object_states: s("/content/objectstategroups/{objectStateGroupId}/objectstates"),
        global_url_aliases: s("/content/urlaliases"),
        url_wildcards: s("/content/urlwildcards"),
        create_session: s("/user/sessions"),
        refresh_session: s("/user/sessions/{sessionId}/refresh"),
        create_token: s("/user/token/jwt"),
    }
}

crate::services::family_service!(
    /// Implements the API of the root resource.
    RootService {
    root: (Root, ETag) = {
        let root = root();
        let etag = ETag::of(&root);
        (root, etag)
    },
}
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> RootApi<B> for RootService
{
    async fn load_root_resource(
        &self,
        _cx: &Caller,
        _req: LoadRootResourceRequest,
    ) -> Result<LoadRootResourceResponse> {
        let (body, etag) = &self.root;
        Ok(LoadRootResourceResponse::Ok {
            body: body.clone(),
            etag: etag.clone(),
        })
    }
}
