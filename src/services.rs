//! The API's implementors: one service per resource family, each in its family's module,
//! and [`Services`], which mounts them all and authenticates each request for them.

use crate::api::traits::ApiBase;
use crate::auth::Caller;
use crate::error::Error;
use crate::shared::Shared;
use cairn_runtime::Rendered;
use cairn_runtime::http::{Operation, Rq};
use cairn_runtime::responses::{Lookup, Slot};
use std::sync::Arc;

/// Declares a family's service type: the shared state it is handed, read through `Deref`
/// (`self.db`, `self.authorize(..)`), and any state of its own.
macro_rules! family_service {
    ($(#[$doc:meta])* $name:ident $({ $($field:ident: $ty:ty = $init:expr),* $(,)? })?) => {
        $(#[$doc])*
        pub struct $name {
            shared: std::sync::Arc<crate::shared::Shared>,
            $($($field: $ty,)*)?
        }

        impl $name {
            pub fn new(shared: std::sync::Arc<crate::shared::Shared>) -> $name {
                $name { shared, $($($field: $init,)*)? }
            }
        }

        impl std::ops::Deref for $name {
            type Target = crate::shared::Shared;

            fn deref(&self) -> &crate::shared::Shared {
                &self.shared
            }
        }
    };
}
pub(crate) use family_service;

crate::api::traits::services!(
    /// Every family's service over one shared state: what the generated routes are mounted on.
    Services(Shared)
);

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
        // Before the caller's Policies are read: they may have changed on another instance.
        let generation = self.generation_for(op).await?;
        let peer = request.http.remote_addr().as_socket_addr().map(|a| a.ip());
        let mut cx = (self.authenticate(
            request.http.headers(),
            peer,
            op,
            request.settings.clone(),
            generation,
        ))
        .await?;
        cx.generation = generation;
        cx.resource = cx.api_path(request.http.uri().path()).to_string();
        Ok(cx)
    }

    async fn completed(&self, _cx: &Caller, op: &'static Operation) {
        self.written(op).await;
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
