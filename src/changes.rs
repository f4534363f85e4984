//! After a successful write, the caches it may have made stale are dropped: here at once, and
//! in the other instances on the same PostgreSQL database through a notification.

use crate::shared::Shared;
use cairn_runtime::http::Operation;

/// The channel on which instances sharing a PostgreSQL database tell each other of changes.
pub(crate) const CHANNEL: &str = "cairn_changes";

impl Shared {
    /// `op` succeeded: drops what it may have changed.
    pub(crate) async fn written(&self, op: &Operation) {
        if matches!(op.method, "GET" | "HEAD" | "OPTIONS") {
            return;
        }
        self.feed.changed();
        // The Policies of users come from Roles, Policies, assignments, the tree that places
        // users in groups, and Object states.
        let permissions = matches!(
            op.family,
            "roles" | "users" | "locations" | "trash" | "object_states"
        ) || (op.family == "content" && op.method == "DELETE");
        let types = matches!(op.family, "content_types" | "languages");
        if !(permissions || types) {
            return;
        }
        if permissions {
            self.permissions.invalidate();
        }
        if types {
            self.types.invalidate();
        }
        if let Err(e) = self.db.notify(CHANNEL).await {
            tracing::error!(error = %e, "cannot tell the other instances of a change");
        }
    }

    /// Another instance changed something (or its notifications may have been missed).
    pub(crate) fn changed_elsewhere(&self) {
        self.feed.changed();
        self.permissions.invalidate();
        self.types.invalidate();
    }
}
