//! What a permission check is about: the attributes of a content item that limitations look
//! at, and the targets of an operation (a parent Location, a new Section or Object state, a
//! Role). Facts a limitation needs but the caller did not have are loaded on demand.

use crate::error::Result;
use cairn_store::Connection;
use cairn_store::entity::{content, content_object_state, location, pending_location};
use cairn_store::sql::stmt;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

/// A Location as limitations see it, with the type and owner of its content (for the
/// `Parent*` limitations of a create below it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LocationFacts {
    pub id: i64,
    pub path_string: String,
    pub depth: i64,
    pub content_type_id: i64,
    pub owner_id: i64,
}

/// A content item (or one being created) as limitations see it.
#[derive(Debug, Clone, Default)]
pub(crate) struct ContentFacts {
    /// None while it is being created.
    pub id: Option<i64>,
    pub content_type_id: i64,
    pub section_id: i64,
    pub owner_id: i64,
    /// Its Locations (for a draft never published: the parents it will be placed under);
    /// None until loaded.
    pub locations: Option<Vec<LocationFacts>>,
    /// Its Object states; None until loaded.
    pub states: Option<Vec<i64>>,
    /// The parents of its owner's Locations (`Group`); None until loaded.
    pub owner_parents: Option<Vec<i64>>,
    /// The languages the operation concerns (`Language`), when it concerns some.
    pub languages: Vec<String>,
    /// The status of the version concerned (`Status`: 0 draft, 1 published, 3 archived).
    pub version_status: Option<i64>,
}

impl ContentFacts {
    /// The facts of a stored content item.
    pub(crate) fn of(c: &content::Model) -> ContentFacts {
        ContentFacts {
            id: Some(c.id),
            content_type_id: c.content_type_id,
            section_id: c.section_id,
            owner_id: c.owner_id,
            ..Default::default()
        }
    }

    pub(crate) fn in_languages(mut self, languages: Vec<String>) -> ContentFacts {
        self.languages = languages;
        self
    }

    pub(crate) fn with_version_status(mut self, status: i64) -> ContentFacts {
        self.version_status = Some(status);
        self
    }
}

/// What an operation acts on besides its object.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// The Location concerned, or the parent Location of a create, copy or move.
    Location(LocationFacts),
    /// The Section an object is assigned to (`NewSection`).
    Section(i64),
    /// The Object state an object is given (`NewState`).
    State(i64),
    /// The Role being assigned (`Role`).
    Role(i64),
    /// The groups the user or group being assigned a Role is in, or the group itself
    /// (`MemberOf`, content ids).
    Members(Vec<i64>),
    /// The siteaccess a login goes through (`SiteAccess`: the CRC-32 of its name).
    SiteAccess(u32),
}

/// A facts the evaluation found missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Missing {
    Locations,
    States,
    OwnerParents,
}

/// The root Location (1) has no content: its type and owner read as 0.
const LOCATION_FACTS: &str = "SELECT l.id, l.path_string, l.depth, \
     COALESCE(c.content_type_id, 0), COALESCE(c.owner_id, 0) \
     FROM locations l LEFT JOIN contents c ON c.id = l.content_id";

fn location_facts(rows: Vec<sea_orm::QueryResult>) -> Result<Vec<LocationFacts>> {
    rows.iter()
        .map(|r| {
            Ok(LocationFacts {
                id: r.try_get_by_index(0)?,
                path_string: r.try_get_by_index(1)?,
                depth: r.try_get_by_index(2)?,
                content_type_id: r.try_get_by_index(3)?,
                owner_id: r.try_get_by_index(4)?,
            })
        })
        .collect()
}

/// The facts of the Location `id` (404 when there is none).
pub(crate) async fn location_facts_of(db: &impl Connection, id: i64) -> Result<LocationFacts> {
    location(db, id)
        .await?
        .ok_or_else(|| crate::error::Error::not_found("Location", id))
}

/// The facts of the Location `id` (None when there is none).
pub(crate) async fn location(db: &impl Connection, id: i64) -> Result<Option<LocationFacts>> {
    let rows = db
        .query_all_raw(stmt(
            db.get_database_backend(),
            &format!("{LOCATION_FACTS} WHERE l.id = ?"),
            [id.into()],
        ))
        .await?;
    Ok(location_facts(rows)?.pop())
}

/// Loads what `missing` names into `facts`.
pub(crate) async fn fill(
    db: &impl Connection,
    facts: &mut ContentFacts,
    missing: Missing,
) -> Result<()> {
    match missing {
        Missing::Locations => {
            let Some(id) = facts.id else {
                facts.locations = Some(vec![]);
                return Ok(());
            };
            let rows = db
                .query_all_raw(stmt(
                    db.get_database_backend(),
                    &format!("{LOCATION_FACTS} WHERE l.content_id = ?"),
                    [id.into()],
                ))
                .await?;
            let mut found = location_facts(rows)?;
            if found.is_empty() {
                // A draft never published: the Locations it will be placed under.
                let parents: Vec<i64> = pending_location::Entity::find()
                    .filter(pending_location::Column::ContentId.eq(id))
                    .all(db)
                    .await?
                    .into_iter()
                    .map(|p| p.parent_id)
                    .collect();
                for p in parents {
                    found.extend(location(db, p).await?);
                }
            }
            facts.locations = Some(found);
        }
        Missing::States => {
            facts.states = Some(match facts.id {
                None => vec![],
                Some(id) => content_object_state::Entity::find()
                    .filter(content_object_state::Column::ContentId.eq(id))
                    .all(db)
                    .await?
                    .into_iter()
                    .map(|s| s.state_id)
                    .collect(),
            });
        }
        Missing::OwnerParents => {
            facts.owner_parents = Some(
                location::Entity::find()
                    .filter(location::Column::ContentId.eq(facts.owner_id))
                    .all(db)
                    .await?
                    .into_iter()
                    .map(|l| l.parent_id)
                    .collect(),
            );
        }
    }
    Ok(())
}
