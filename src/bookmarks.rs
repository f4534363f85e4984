//! Bookmarks: the Locations the current user has marked (spec 2.7, 4.2). They belong to the
//! caller; the anonymous user has none and may not make any (401). A Location's bookmarks go
//! when the Location is deleted or trashed ([`locations_removed`]).

use crate::api::hrefs;
use crate::api::model::*;
use crate::api::traits::BookmarksApi;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::permissions::filter::Sql;
use crate::permissions::{Filter, READ, Scope};
use crate::tree;
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{bookmark, location};
use cairn_store::sql::stmt;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

/// The bookmarks of a user whose Location still exists (a bookmark made while its Location
/// was being deleted by a concurrent transaction is never shown).
const OF_USER: &str =
    "FROM bookmarks b JOIN locations l ON l.id = b.location_id WHERE b.user_id = ?";

/// 401 for the anonymous user: bookmarks need a logged-in user.
fn logged_in(cx: &Caller) -> Result<i64> {
    if cx.is_anonymous() {
        return Err(Error::Unauthorized(
            "Bookmarks are kept for logged-in users only: log in first".into(),
        ));
    }
    Ok(cx.user_id)
}

fn not_bookmarked(location_id: i64) -> Error {
    Error::Absent(format!("Location {location_id} is not bookmarked"))
}

/// Removes, in one statement, the bookmarks of every Location whose `path_string` lies in
/// `[path_start, path_end)` (a subtree: `path_end` is [`tree::subtree_end`] of its root).
/// Call it before those Locations are deleted or moved to the Trash.
pub(crate) async fn locations_removed(tx: &Tx, path_start: &str, path_end: &str) -> Result<()> {
    tx.execute_raw(stmt(
        tx.get_database_backend(),
        "DELETE FROM bookmarks WHERE location_id IN (SELECT id FROM locations WHERE path_string >= ? AND path_string < ?)",
        vec![path_start.into(), path_end.into()],
    ))
    .await?;
    Ok(())
}

impl BookmarksService {
    /// Whether `user_id` has bookmarked the existing Location `location_id`.
    async fn has_bookmark(
        &self,
        db: &impl Connection,
        user_id: i64,
        location_id: i64,
    ) -> Result<bool> {
        let row = db
            .query_one_raw(stmt(
                db.get_database_backend(),
                &format!("SELECT b.location_id AS id {OF_USER} AND b.location_id = ?"),
                vec![user_id.into(), location_id.into()],
            ))
            .await?;
        Ok(row.is_some())
    }

    /// 200 when the caller has bookmarked the Location; 404 when not, or when it does not exist.
    async fn check_bookmarked(&self, cx: &Caller, location_id: i64) -> Result<()> {
        let user_id = logged_in(cx)?;
        let db = cx.reader();
        if self.has_bookmark(db, user_id, location_id).await? {
            return Ok(());
        }
        tree::find(db, location_id).await?;
        Err(not_bookmarked(location_id))
    }
}

crate::services::family_service!(
    /// Implements the API of bookmarks.
    BookmarksService
);

impl<
    B: crate::api::traits::ApiBase<Context = crate::auth::Caller, Error = crate::error::Error>
        + ?Sized,
> BookmarksApi<B> for BookmarksService
{
    async fn load_bookmarks(
        &self,
        cx: &Caller,
        req: LoadBookmarksRequest,
    ) -> Result<LoadBookmarksResponse> {
        let user_id = logged_in(cx)?;
        let db = cx.reader();
        let backend = db.get_database_backend();
        // Only the bookmarks of Locations the caller may still read.
        let scope = Scope {
            content: "pc",
            location: Some("l"),
            location_sections: true,
        };
        let (of_user, only) = match self.visible(cx, READ, scope) {
            Filter::All => (OF_USER.to_string(), Sql::default()),
            f => {
                let only = f.sql();
                let sql = format!(
                    "{OF_USER} AND EXISTS (SELECT 1 FROM contents pc WHERE pc.id = l.content_id AND {})",
                    only.sql
                );
                (sql, only)
            }
        };
        let with = |mut values: Vec<sea_orm::Value>| {
            values.splice(1..1, only.values.iter().cloned());
            values
        };
        let (offset, limit) = (req.offset.sql(), req.limit.sql());
        let count: i64 = db
            .query_one_raw(stmt(
                backend,
                &format!("SELECT COUNT(*) AS n {of_user}"),
                with(vec![user_id.into()]),
            ))
            .await?
            .map(|r| r.try_get::<i64>("", "n"))
            .transpose()?
            .unwrap_or(0);
        // Newest first, as the reference (which orders by bookmark id, descending).
        let window = if count > offset && limit > 0 {
            location::Entity::find()
                .from_raw_sql(stmt(
                    backend,
                    &format!(
                        "SELECT l.* {of_user} ORDER BY b.created DESC, b.location_id DESC LIMIT ? OFFSET ?"
                    ),
                    with(vec![user_id.into(), limit.into(), offset.into()]),
                ))
                .all(db)
                .await?
        } else {
            Vec::new()
        };
        let bodies = self.location_bodies(db, &window).await?;
        let items = window
            .iter()
            .zip(bodies)
            .map(|(l, location)| Bookmark {
                _href: hrefs::is_bookmarked_get(l.id),
                location,
            })
            .collect();
        Ok(LoadBookmarksResponse::Ok {
            body: BookmarkList {
                count,
                bookmark: items,
            },
        })
    }

    async fn create_bookmark(
        &self,
        cx: &Caller,
        req: CreateBookmarkRequest,
    ) -> Result<CreateBookmarkResponse> {
        let user_id = logged_in(cx)?;
        let location_id = req.location_id;
        self.db
            .write(cx.change(), async |tx| {
                let l = tree::find(tx, location_id).await?;
                self.authorize_at(tx, cx, READ, &l, vec![]).await?;
                let inserted = bookmark::Entity::insert(bookmark::ActiveModel {
                    user_id: Set(user_id),
                    location_id: Set(location_id),
                    created: Set(chrono::Utc::now().timestamp_micros()),
                })
                .on_conflict(
                    OnConflict::columns([bookmark::Column::UserId, bookmark::Column::LocationId])
                        .do_nothing()
                        .to_owned(),
                )
                .exec_without_returning(tx)
                .await?;
                if inserted == 0 {
                    return Err(Error::BadState(format!(
                        "Location {location_id} is already bookmarked"
                    )));
                }
                tx.created(&hrefs::is_bookmarked_get(location_id));
                Ok::<_, Error>(())
            })
            .await?;
        Ok(CreateBookmarkResponse::Created {
            location: hrefs::is_bookmarked_get(location_id),
        })
    }

    async fn is_bookmarked(
        &self,
        cx: &Caller,
        req: IsBookmarkedRequest,
    ) -> Result<IsBookmarkedResponse> {
        self.check_bookmarked(cx, req.location_id).await?;
        Ok(IsBookmarkedResponse::Ok)
    }

    async fn is_bookmarked_get(
        &self,
        cx: &Caller,
        req: IsBookmarkedGetRequest,
    ) -> Result<IsBookmarkedGetResponse> {
        self.check_bookmarked(cx, req.location_id).await?;
        Ok(IsBookmarkedGetResponse::Ok)
    }

    async fn delete_bookmark(
        &self,
        cx: &Caller,
        req: DeleteBookmarkRequest,
    ) -> Result<DeleteBookmarkResponse> {
        let user_id = logged_in(cx)?;
        let location_id = req.location_id;
        self.db
            .write(cx.change(), async |tx| {
                let deleted = bookmark::Entity::delete_many()
                    .filter(bookmark::Column::UserId.eq(user_id))
                    .filter(bookmark::Column::LocationId.eq(location_id))
                    .exec(tx)
                    .await?
                    .rows_affected;
                if deleted == 0 {
                    tree::find(tx, location_id).await?;
                    return Err(not_bookmarked(location_id));
                }
                Ok::<_, Error>(())
            })
            .await?;
        Ok(DeleteBookmarkResponse::NoContent)
    }
}
