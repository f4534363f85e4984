//! The API's implementors mounted: [`Services`] holds every family's service, implements the
//! generated `Api` through them, and authenticates each request for them.

use crate::api::traits::{Api, ApiBase};
use crate::auth::Caller;
use crate::error::Error;
use crate::field_types::files::Uploads;
use crate::shared::Shared;
use cairn_runtime::Rendered;
use cairn_runtime::http::{Operation, Rq};
use cairn_runtime::responses::{Lookup, Slot};
use std::sync::Arc;

/// Every family's service over one shared state: what the generated routes are mounted on.
/// The compiler holds it to the spec's list of families (the generated [`Api`] names each).
pub struct Services {
    pub shared: Arc<Shared>,
    /// How far the shared HTTP caches in front have their purges: a write answers once they
    /// have its own.
    purges: Arc<crate::http_cache::Progress>,
    bookmarks: crate::bookmarks::BookmarksService,
    content: crate::content::ContentService,
    content_types: crate::content_types::ContentTypesService,
    countries: crate::countries::CountriesService,
    events: crate::events::EventsService,
    languages: crate::languages::LanguagesService,
    locations: crate::locations::LocationsService,
    object_states: crate::object_states::ObjectStatesService,
    roles: crate::roles::RolesService,
    root: crate::root::RootService,
    sections: crate::sections::SectionsService,
    sessions: crate::sessions::SessionsService,
    trash: crate::trash::TrashService,
    url_aliases: crate::url_aliases::UrlAliasesService,
    users: crate::users::UsersService,
    views: crate::views::ViewsService,
}

impl Services {
    pub fn new(shared: Arc<Shared>, purges: Arc<crate::http_cache::Progress>) -> Services {
        Services {
            purges,
            bookmarks: crate::bookmarks::BookmarksService::new(shared.clone()),
            content: crate::content::ContentService::new(shared.clone()),
            content_types: crate::content_types::ContentTypesService::new(shared.clone()),
            countries: crate::countries::CountriesService::new(shared.clone()),
            events: crate::events::EventsService::new(shared.clone()),
            languages: crate::languages::LanguagesService::new(shared.clone()),
            locations: crate::locations::LocationsService::new(shared.clone()),
            object_states: crate::object_states::ObjectStatesService::new(shared.clone()),
            roles: crate::roles::RolesService::new(shared.clone()),
            root: crate::root::RootService::new(shared.clone()),
            sections: crate::sections::SectionsService::new(shared.clone()),
            sessions: crate::sessions::SessionsService::new(shared.clone()),
            trash: crate::trash::TrashService::new(shared.clone()),
            url_aliases: crate::url_aliases::UrlAliasesService::new(shared.clone()),
            users: crate::users::UsersService::new(shared.clone()),
            views: crate::views::ViewsService::new(shared.clone()),
            shared,
        }
    }
}

impl Api for Services {
    type Bookmarks = crate::bookmarks::BookmarksService;
    type Content = crate::content::ContentService;
    type ContentTypes = crate::content_types::ContentTypesService;
    type Countries = crate::countries::CountriesService;
    type Events = crate::events::EventsService;
    type Languages = crate::languages::LanguagesService;
    type Locations = crate::locations::LocationsService;
    type ObjectStates = crate::object_states::ObjectStatesService;
    type Roles = crate::roles::RolesService;
    type Root = crate::root::RootService;
    type Sections = crate::sections::SectionsService;
    type Sessions = crate::sessions::SessionsService;
    type Trash = crate::trash::TrashService;
    type UrlAliases = crate::url_aliases::UrlAliasesService;
    type Users = crate::users::UsersService;
    type Views = crate::views::ViewsService;

    fn bookmarks(&self) -> &Self::Bookmarks {
        &self.bookmarks
    }

    fn content(&self) -> &Self::Content {
        &self.content
    }

    fn content_types(&self) -> &Self::ContentTypes {
        &self.content_types
    }

    fn countries(&self) -> &Self::Countries {
        &self.countries
    }

    fn events(&self) -> &Self::Events {
        &self.events
    }

    fn languages(&self) -> &Self::Languages {
        &self.languages
    }

    fn locations(&self) -> &Self::Locations {
        &self.locations
    }

    fn object_states(&self) -> &Self::ObjectStates {
        &self.object_states
    }

    fn roles(&self) -> &Self::Roles {
        &self.roles
    }

    fn root(&self) -> &Self::Root {
        &self.root
    }

    fn sections(&self) -> &Self::Sections {
        &self.sections
    }

    fn sessions(&self) -> &Self::Sessions {
        &self.sessions
    }

    fn trash(&self) -> &Self::Trash {
        &self.trash
    }

    fn url_aliases(&self) -> &Self::UrlAliases {
        &self.url_aliases
    }

    fn users(&self) -> &Self::Users {
        &self.users
    }

    fn views(&self) -> &Self::Views {
        &self.views
    }
}

impl std::ops::Deref for Services {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.shared
    }
}

impl ApiBase for Services {
    type Context = Caller;
    type Error = Error;

    async fn context(&self, request: &Rq, op: &'static Operation) -> Result<Caller, Error> {
        let peer = request.http.remote_addr().as_socket_addr().map(|a| a.ip());
        // The request's reader (`app::serve` makes it and finishes it).
        let reader = (request.http.extensions().get::<Arc<cairn_store::Reader>>())
            .cloned()
            .unwrap_or_else(|| Arc::new(self.db.plain_reader()));
        // Before the caller's Policies are read: they may have changed on another instance.
        let generation = self.generation_for(&reader, op).await?;
        let mut cx = (self.authenticate(
            request.http.headers(),
            peer,
            op,
            request.settings.clone(),
            generation,
            reader,
        ))
        .await?;
        cx.generation = generation;
        cx.resource = cx.api_path(request.http.uri().path()).to_string();
        // The app's record of the files this request stores (`app::serve` removes them if it fails).
        if let Some(uploads) = request.http.extensions().get::<Arc<Uploads>>() {
            cx.uploads = uploads.clone();
        }
        Ok(cx)
    }

    async fn completed(&self, cx: &Caller, op: &'static Operation) {
        self.written(op).await;
        if self.purges.any() && op.access == cairn_runtime::http::Access::Write {
            // The last change committed, this one's or a later one.
            match cairn_store::events::generation(cx.reader()).await {
                Ok(id) => {
                    if !self.purges.wait_for(id, crate::http_cache::WAIT).await {
                        tracing::warn!(
                            operation = op.id,
                            "answered before the caches had its purge"
                        );
                    }
                }
                Err(e) => tracing::warn!(error = %e, "no generation to wait for purges"),
            }
        }
    }

    fn cached(&self, cx: &Caller, request: &Rq) -> Lookup {
        self.lookup(cx, request)
    }

    fn keep(&self, slot: Slot, page: Arc<Rendered>) {
        if let Some(r) = &self.responses {
            r.put(slot, page);
        }
    }
}
