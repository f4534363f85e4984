//! Users and user groups as content items of their types: the content type checked, the
//! account field filled, created and updated with their fields and metadata.

use super::*;
use cairn_store::Connection;
use cairn_store::Tx;

pub(super) fn field_inputs(list: Option<&UserFieldInputList>) -> Vec<FieldInput> {
    list.map(|l| l.field.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|f| FieldInput {
            id: None,
            field_type_identifier: None,
            field_definition_identifier: f.field_definition_identifier.clone(),
            language_code: f.language_code.clone(),
            field_value: f.field_value.clone(),
        })
        .collect()
}

/// The account field input of a user: `login`, `email`, `enabled` and the new password.
pub(super) fn account_input(
    identifier: &str,
    login: &str,
    email: &str,
    enabled: bool,
    password: Option<&str>,
    stored: bool,
) -> FieldInput {
    let mut entries = vec![
        ("hasStoredLogin".to_string(), HashValue::Bool(stored)),
        ("login".to_string(), HashValue::String(login.to_string())),
        ("email".to_string(), HashValue::String(email.to_string())),
        ("enabled".to_string(), HashValue::Bool(enabled)),
    ];
    if let Some(p) = password {
        entries.push((
            "plainPassword".to_string(),
            HashValue::String(p.to_string()),
        ));
    }
    FieldInput {
        id: None,
        field_type_identifier: None,
        field_definition_identifier: identifier.to_string(),
        language_code: None,
        field_value: HashValue::Map(entries),
    }
}

impl UsersService {
    /// The type a new user or group is of: the input's, else the one with `identifier`.
    pub(super) async fn type_for(
        &self,
        db: &impl Connection,
        given: Option<i64>,
        identifier: &str,
    ) -> Result<std::sync::Arc<rows::TypeInfo>> {
        let id = match given {
            Some(id) => id,
            None => content_type::Entity::find()
                .filter(content_type::Column::Identifier.eq(identifier))
                .filter(content_type::Column::Status.eq(content_type::DEFINED))
                .one(db)
                .await?
                .map(|t| t.id)
                .ok_or_else(|| {
                    Error::BadRequest(format!("There is no content type '{identifier}'"))
                })?,
        };
        self.defined_type(db, id)
            .await
            .map_err(|_| Error::BadRequest(format!("Content type {id} does not exist")))
    }

    /// The identifier of the account (`ezuser`) Field definition of a user type, or 400.
    pub(super) fn account_field(ty: &rows::TypeInfo) -> Result<String> {
        ty.fields
            .iter()
            .find(|f| f.field_type == "user")
            .map(|f| f.identifier.clone())
            .ok_or_else(|| {
                Error::BadRequest(format!(
                    "Content type '{}' has no user account Field definition",
                    ty.ty.identifier
                ))
            })
    }

    /// Creates and publishes a user or group under the group at `parent`.
    pub(super) async fn create_member(
        &self,
        cx: &Caller,
        parent: &location::Model,
        ty: &rows::TypeInfo,
        head: (String, Option<i64>, Option<String>),
        fields: Vec<FieldInput>,
    ) -> Result<content::Model> {
        let (main_language_code, section, remote_id) = head;
        let create = ContentCreate {
            content_type: ty.ty.id,
            main_language_code,
            location_create: LocationCreate {
                parent_location: href_path(&parent.path_string),
                priority: None,
                hidden: None,
                remote_id: None,
                sort_field: None,
                sort_order: None,
            },
            section,
            user: None,
            always_available: None,
            remote_id,
            modification_date: None,
            fields: FieldInputList { field: fields },
        };
        self.create(cx, create, crate::content::Then::PublishMember)
            .await
    }

    /// Changes metadata and fields of a user or group (inside the caller's transaction):
    /// metadata in place, fields through a new version published at once.
    pub(super) async fn update_member(
        &self,
        tx: &Tx,
        cx: &Caller,
        c: content::Model,
        metadata: ContentUpdate,
        fields: Vec<FieldInput>,
    ) -> Result<()> {
        let touches = metadata.main_language_code.is_some()
            || metadata.section.is_some()
            || metadata.remote_id.is_some();
        let c = if touches {
            if let Some(s) = metadata.section {
                self.authorize_section_assign(tx, cx, &c, s).await?;
            }
            self.apply_metadata(tx, &c, &metadata).await?
        } else {
            c
        };
        if fields.is_empty() {
            return Ok(());
        }
        let v = self.draft_from(tx, cx, &c, c.current_version).await?;
        let initial = v.initial_language_code.clone();
        let v = self
            .edit_draft(tx, &c, v, (&fields, initial), None, &cx.uploads)
            .await?;
        self.publish_version(tx, &c, v).await.map(drop)
    }

    /// `content/edit` on `c` for the languages `fields` write (a field without one is in the
    /// current version's initial language), as the reference checks a draft's update.
    pub(super) async fn authorize_fields(
        &self,
        tx: &Tx,
        cx: &Caller,
        c: &content::Model,
        fields: &[FieldInput],
    ) -> Result<()> {
        let edit = ("content", "edit");
        if fields.is_empty() || cx.grants.may_all(edit.0, edit.1) {
            return Ok(());
        }
        let v = rows::version(tx, c.id, c.current_version).await?;
        let mut languages: Vec<String> = Vec::new();
        for f in fields {
            let l = f.language_code.as_ref().unwrap_or(&v.initial_language_code);
            if !languages.contains(l) {
                languages.push(l.clone());
            }
        }
        let written = [Target::Version(VersionTarget::Update {
            languages,
            initial: None,
        })];
        self.authorize(
            tx,
            cx,
            edit,
            Subject::Content(ContentFacts::of(c)),
            &written,
        )
        .await
    }

    pub(super) fn metadata(
        main_language_code: Option<String>,
        section: Option<i64>,
        remote_id: Option<String>,
    ) -> ContentUpdate {
        ContentUpdate {
            main_language_code,
            section,
            main_location: None,
            owner: None,
            always_available: None,
            remote_id,
            modification_date: None,
            publish_date: None,
        }
    }
}
