//! What a permission check is about: the attributes of a content item that limitations look
//! at, and the targets of an operation (a parent Location, a new Section or Object state, a
//! Role). Facts a limitation needs but the caller did not have are loaded on demand.

use crate::error::Result;
use cairn_store::Connection;
use cairn_store::entity::{
    content, content_object_state, content_version, location, pending_location,
};
use cairn_store::sql::stmt;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

/// A Location as limitations see it, with the type and owner of its content (for the
/// `Parent*` limitations of a create below it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LocationFacts {
    pub id: i64,
    /// The content item at it (0 at the root).
    pub content_id: i64,
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
    /// A content item being created: its main language and the languages of its fields
    /// (`Language` on the reference's `ContentCreateStruct`).
    pub languages: Vec<String>,
    /// The initial language of the version concerned (`Language` on a content item or a
    /// version with no target that decides): of its current version unless set; None until
    /// loaded.
    pub initial_language: Option<String>,
    /// The languages of its current version (`Language` on a `Destination` or on a deletion
    /// of every translation); None until loaded.
    pub current_languages: Option<Vec<String>>,
    /// The version concerned, when it is not the current one.
    pub version_no: Option<i64>,
    /// The status of the version concerned (`Status`: 0 draft, 1 published, 3 archived).
    pub version_status: Option<i64>,
    /// The languages in which publishing the version concerned changes the published item
    /// (a field changed, a translation added or removed); None until loaded.
    pub changed_languages: Option<Vec<String>>,
    /// The parents of the Locations of each target Location's owner (`ParentGroup`), by
    /// owner; None until loaded.
    pub target_owner_parents: Option<Vec<(i64, Vec<i64>)>>,
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

    /// The facts with the status of the version concerned.
    pub(crate) fn with_version_status(mut self, status: i64) -> ContentFacts {
        self.version_status = Some(status);
        self
    }

    /// The facts of `c` as of its version `v` (the reference's `Content` or `VersionInfo`):
    /// its status and initial language.
    pub(crate) fn of_version(c: &content::Model, v: &content_version::Model) -> ContentFacts {
        ContentFacts {
            version_no: Some(v.version_no),
            version_status: Some(v.status),
            initial_language: Some(v.initial_language_code.clone()),
            ..ContentFacts::of(c)
        }
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
    /// The user or group a Role is assigned to or unassigned from (`MemberOf`).
    Member(Member),
    /// The siteaccess a login goes through (`SiteAccess`: the CRC-32 of its name).
    SiteAccess(u32),
    /// What the operation does to the translations of a version (the reference's
    /// `Target\Version`), which `Language` decides on.
    Version(VersionTarget),
    /// The content item is placed, shown, hidden or changed at a Location (the reference's
    /// `DestinationLocation`): `Language` asks for every language of its current version.
    Destination,
}

/// Whom a Role assignment is for, as `MemberOf` sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Member {
    /// A user: the content ids of its groups, and their Locations.
    User {
        groups: Vec<i64>,
        group_locations: Vec<i64>,
    },
    /// A user group: its content id and its Locations.
    Group { id: i64, locations: Vec<i64> },
}

/// The reference's `Target\Version`, one kind of change at a time as its callers build it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum VersionTarget {
    /// A new draft (`changeStatusTo(DRAFT)`): `Language` grants.
    NewDraft,
    /// A draft updated (`updateFieldsTo`): the languages of the fields written, each of
    /// which must be allowed, and the initial language set, when the update sets one.
    Update {
        languages: Vec<String>,
        initial: Option<String>,
    },
    /// Translations deleted (`deleteTranslations`), each of which must be allowed; None: every
    /// language of the current version (the item goes whole).
    Delete(Option<Vec<String>>),
    /// A translation in any of these languages (`translateToAnyLanguageOf`), one of which
    /// must be allowed.
    AnyOf(Vec<String>),
    /// The version concerned is published (`publishTranslations`): every language in which
    /// it changes the published item must be allowed.
    Publish,
}

/// A facts the evaluation found missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Missing {
    Locations,
    States,
    OwnerParents,
    /// The current version's initial language and languages.
    CurrentVersion,
    /// The parents of the target Locations' owners' Locations.
    TargetOwnerParents,
    /// The languages a publication of the version concerned changes.
    ChangedLanguages,
}

/// The root Location (1) has no content: its type and owner read as 0.
const LOCATION_FACTS: &str = "SELECT l.id, l.path_string, l.depth, \
     COALESCE(c.content_type_id, 0), COALESCE(c.owner_id, 0), l.content_id \
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
                content_id: r.try_get_by_index(5)?,
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
    targets: &[Target],
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
            facts.owner_parents = Some(parents_of_locations(db, facts.owner_id).await?);
        }
        Missing::CurrentVersion => {
            let current = match facts.id {
                None => None,
                Some(id) => {
                    db.query_one_raw(stmt(
                        db.get_database_backend(),
                        "SELECT v.initial_language_code, v.language_codes FROM contents c \
                         JOIN content_versions v ON v.content_id = c.id \
                         AND v.version_no = c.current_version WHERE c.id = ?",
                        [id.into()],
                    ))
                    .await?
                }
            };
            let (initial, languages) = match current {
                Some(r) => (
                    r.try_get_by_index::<String>(0)?,
                    r.try_get_by_index::<String>(1)?,
                ),
                None => (String::new(), String::new()),
            };
            if facts.initial_language.is_none() {
                facts.initial_language = Some(initial);
            }
            facts.current_languages = Some(
                languages
                    .split(',')
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect(),
            );
        }
        Missing::ChangedLanguages => {
            facts.changed_languages = Some(match (facts.id, facts.version_no) {
                (Some(id), Some(no)) => changed_languages(db, id, no).await?,
                _ => vec![],
            });
        }
        Missing::TargetOwnerParents => {
            let mut found = Vec::new();
            for t in targets {
                if let Target::Location(l) = t
                    && !found.iter().any(|(o, _)| *o == l.owner_id)
                {
                    found.push((l.owner_id, parents_of_locations(db, l.owner_id).await?));
                }
            }
            facts.target_owner_parents = Some(found);
        }
    }
    Ok(())
}

/// The languages in which publishing version `no` of content `id` changes its published
/// version: fields of the version that the published one lacks or holds otherwise, and
/// translations it removes (every language of a first publication).
async fn changed_languages(db: &impl Connection, id: i64, no: i64) -> Result<Vec<String>> {
    const PUBLISHED: &str = "SELECT p.id, p.language_code, p.value FROM content_fields p \
         JOIN contents c ON c.id = p.content_id AND p.version_no = c.current_version \
         WHERE c.id = ? AND c.status = ?";
    let sql = format!(
        "SELECT d.language_code FROM content_fields d WHERE d.content_id = ? AND d.version_no = ? \
         AND NOT EXISTS (SELECT 1 FROM ({PUBLISHED}) p WHERE p.id = d.id \
         AND p.language_code = d.language_code AND p.value = d.value) \
         UNION SELECT p.language_code FROM ({PUBLISHED}) p WHERE NOT EXISTS \
         (SELECT 1 FROM content_fields d WHERE d.content_id = ? AND d.version_no = ? \
         AND d.language_code = p.language_code)"
    );
    let published = content::PUBLISHED;
    let rows = db
        .query_all_raw(stmt(
            db.get_database_backend(),
            &sql,
            [
                id.into(),
                no.into(),
                id.into(),
                published.into(),
                id.into(),
                published.into(),
                id.into(),
                no.into(),
            ],
        ))
        .await?;
    rows.iter()
        .map(|r| Ok(r.try_get_by_index::<String>(0)?))
        .collect()
}

/// The parents of the Locations of the content item `id` (a user's groups).
async fn parents_of_locations(db: &impl Connection, id: i64) -> Result<Vec<i64>> {
    Ok(location::Entity::find()
        .filter(location::Column::ContentId.eq(id))
        .all(db)
        .await?
        .into_iter()
        .map(|l| l.parent_id)
        .collect())
}
