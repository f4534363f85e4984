//! JSON Web Tokens (RFC 7519) as the reference's (lexik's bundle) makes them: HS256, with the
//! login (`username`), the time of issue and the expiry. cairn adds the user's id (`uid`) and a
//! fingerprint of its credentials (`cred`: password hash and token epoch): a token ends when
//! its user is deleted, disabled or gets another password, as a session does. The key is `--jwt-key-file`'s, or one generated on
//! first use and kept in the database (table `secrets`), which every instance on it shares.

use crate::error::{Error, Result};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use cairn_store::Db;
use cairn_store::entity::user;
use hmac::{Hmac, Mac};
use rand::Rng;
use sea_orm::ConnectionTrait;
use serde_json::{Value, json};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// The name of the generated key in `secrets`.
const KEY_NAME: &str = "jwt_key";

/// The least key length: RFC 7518 asks HS256 for a key of 256 bits at least.
pub const MIN_KEY_BYTES: usize = 32;

/// The header of every token cairn issues (lexik's, in its order).
const HEADER: &str = r#"{"typ":"JWT","alg":"HS256"}"#;

/// What a valid token says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claims {
    /// The user's login.
    pub username: String,
    /// The user's id.
    pub uid: i64,
    /// The fingerprint of the user's password hash when the token was issued.
    pub cred: String,
}

/// A signing key, not shown in logs.
#[derive(Clone)]
pub struct Key(Vec<u8>);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

/// Issues and verifies tokens.
#[derive(Debug)]
pub struct Tokens {
    key: tokio::sync::OnceCell<Key>,
    /// Seconds a token is valid.
    ttl: i64,
}

impl Tokens {
    /// Tokens signed with `key` (from `--jwt-key-file`), or else with the database's key,
    /// valid for `ttl` seconds.
    pub fn new(key: Option<Key>, ttl: i64) -> Tokens {
        Tokens {
            key: tokio::sync::OnceCell::new_with(key),
            ttl,
        }
    }
}

impl Key {
    /// Reads a key file: its bytes, without the whitespace around them, at least
    /// [`MIN_KEY_BYTES`] of them.
    pub fn read_file(path: &std::path::Path) -> anyhow::Result<Key> {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("--jwt-key-file {}: {e}", path.display()))?;
        let key = bytes.trim_ascii().to_vec();
        if key.len() < MIN_KEY_BYTES {
            anyhow::bail!(
                "--jwt-key-file {}: the key has {} bytes; HS256 needs {MIN_KEY_BYTES} at least",
                path.display(),
                key.len()
            );
        }
        Ok(Key(key))
    }
}

impl Tokens {
    /// The key: the configured one, else the database's; when it has none, one generated
    /// and kept if `make` (another instance's insert first wins: each reads the one kept).
    async fn key(&self, db: &Db, make: bool) -> Result<Option<&[u8]>> {
        if let Some(k) = self.key.get() {
            return Ok(Some(&k.0));
        }
        let found = match stored_key(db).await? {
            Some(k) => k,
            None if !make => return Ok(None),
            None => {
                let mut bytes = [0u8; 32];
                rand::rng().fill(&mut bytes);
                let value = URL_SAFE_NO_PAD.encode(bytes);
                db.write_untracked(async |tx| {
                    cairn_store::sql::exec(
                        tx,
                        "INSERT INTO secrets (name, value) VALUES (?, ?) \
                         ON CONFLICT (name) DO NOTHING",
                        [KEY_NAME.into(), value.into()],
                    )
                    .await
                })
                .await?;
                (stored_key(db).await?)
                    .ok_or_else(|| Error::Internal("the JWT key was not kept".into()))?
            }
        };
        Ok(Some(&self.key.get_or_init(async || Key(found)).await.0))
    }

    /// A token for the account `user`, issued `now`.
    pub async fn issue(&self, db: &Db, user: &user::Model, now: i64) -> Result<String> {
        let key =
            (self.key(db, true).await?).ok_or_else(|| Error::Internal("no JWT key".into()))?;
        let payload = json!({
            "iat": now,
            "exp": now + self.ttl,
            "roles": ["ROLE_USER"],
            "username": user.login,
            "uid": user.id,
            "cred": fingerprint(key, user)?,
        });
        let signed = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(HEADER),
            URL_SAFE_NO_PAD.encode(payload.to_string())
        );
        let signature = URL_SAFE_NO_PAD.encode(mac(key, &signed)?.finalize().into_bytes());
        Ok(format!("{signed}.{signature}"))
    }

    /// The claims of `token` if this key signed it (HS256, checked in constant time) and it
    /// has not expired at `now`; else 401 "Invalid JWT Token" or "Expired JWT Token".
    pub async fn verify(&self, db: &Db, token: &str, now: i64) -> Result<Claims> {
        let invalid = || Error::Unauthorized("Invalid JWT Token".into());
        // No key yet: no token was issued, none is valid (a bad token makes no key).
        let key = self.key(db, false).await?.ok_or_else(invalid)?;
        let (signed, signature) = token.trim().rsplit_once('.').ok_or_else(invalid)?;
        let (header, payload) = signed.split_once('.').ok_or_else(invalid)?;
        let signature = URL_SAFE_NO_PAD.decode(signature).map_err(|_| invalid())?;
        mac(key, signed)?
            .verify_slice(&signature)
            .map_err(|_| invalid())?;
        let json = |part: &str| {
            URL_SAFE_NO_PAD
                .decode(part)
                .ok()
                .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                .ok_or_else(invalid)
        };
        if json(header)?["alg"] != "HS256" {
            return Err(invalid());
        }
        let p = json(payload)?;
        let exp = p["exp"].as_i64().ok_or_else(invalid)?;
        if exp <= now {
            return Err(Error::Unauthorized("Expired JWT Token".into()));
        }
        let text = |k: &str| p[k].as_str().map(str::to_string).ok_or_else(invalid);
        Ok(Claims {
            username: text("username")?,
            uid: p["uid"].as_i64().ok_or_else(invalid)?,
            cred: text("cred")?,
        })
    }

    /// Whether `claims` (verified) still hold for the account `user`: the same user, with the
    /// credentials it had (compared in constant time).
    pub fn vouches(&self, claims: &Claims, user: &user::Model) -> bool {
        let Some(key) = self.key.get() else {
            return false;
        };
        let Ok(cred) = URL_SAFE_NO_PAD.decode(&claims.cred) else {
            return false;
        };
        claims.uid == user.id
            && claims.username == user.login
            && cred.len() == CRED_BYTES
            && cred_mac(&key.0, user).is_ok_and(|m| m.verify_truncated_left(&cred).is_ok())
    }
}

/// The key kept in the database, if any.
async fn stored_key(db: &Db) -> Result<Option<Vec<u8>>> {
    let rows = db
        .conn()
        .query_all_raw(cairn_store::sql::stmt(
            db.backend(),
            "SELECT value FROM secrets WHERE name = ?",
            [KEY_NAME.into()],
        ))
        .await?;
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let value: String = row.try_get_by_index(0)?;
    URL_SAFE_NO_PAD
        .decode(value)
        .map(Some)
        .map_err(|e| Error::Internal(format!("the JWT key kept in the database: {e}")))
}

/// HMAC-SHA256 of `data` under `key`, to finish or to verify.
fn mac(key: &[u8], data: &str) -> Result<HmacSha256> {
    let mut m = <HmacSha256 as Mac>::new_from_slice(key)
        .map_err(|e| Error::Internal(format!("the JWT key: {e}")))?;
    m.update(data.as_bytes());
    Ok(m)
}

/// The MAC of an account's credentials (its password hash and token epoch) whose first
/// [`CRED_BYTES`] are their fingerprint: keyed, so that the token shows nothing of the hash.
fn cred_mac(key: &[u8], user: &user::Model) -> Result<HmacSha256> {
    mac(
        key,
        &format!("cred:{}:{}", user.token_epoch, user.password_hash),
    )
}

/// The bytes of a fingerprint.
const CRED_BYTES: usize = 16;

/// The fingerprint of an account's credentials.
fn fingerprint(key: &[u8], user: &user::Model) -> Result<String> {
    let digest = cred_mac(key, user)?.finalize().into_bytes();
    Ok(URL_SAFE_NO_PAD.encode(&digest[..CRED_BYTES]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_depends_on_the_key_the_hash_and_the_epoch() {
        let (a, b) = (vec![1u8; 32], vec![2u8; 32]);
        let user = |hash: &str, token_epoch| user::Model {
            id: 14,
            login: "admin".into(),
            email: "admin@link.invalid".into(),
            password_hash: hash.into(),
            password_updated_at: None,
            enabled: true,
            max_login: 10,
            token_epoch,
        };
        let f = |k: &[u8], u: user::Model| fingerprint(k, &u).unwrap();
        assert_eq!(f(&a, user("h", 0)), f(&a, user("h", 0)));
        assert_ne!(f(&a, user("h", 0)), f(&a, user("i", 0)));
        assert_ne!(f(&a, user("h", 0)), f(&a, user("h", 1)));
        assert_ne!(f(&a, user("h", 0)), f(&b, user("h", 0)));
        assert_eq!(f(&a, user("h", 0)).len(), 22);
    }
}
