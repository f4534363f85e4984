//! The documentation cannot drift: README's example requests (its `sh` blocks' `curl` lines
//! against 127.0.0.1:8080) are parsed and sent, in order, to a fresh server, each answering
//! 2xx in the format its `Accept` asks for; every relative link of README.md, docs/ and the
//! bench's README leads to a file (and heading) that exists; and docs/configuration.md lists
//! every option of `cairn serve` with its variable and default as `--help` gives them.

use crate::support::*;
use std::path::{Path, PathBuf};

/// The checkout's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The contents of the fenced blocks of `text` whose info string is `lang`.
fn code_blocks(text: &str, lang: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<(bool, String)> = None;
    for line in text.lines() {
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim() == lang, String::new())),
            (Some((wanted, block)), Some(_)) => {
                if *wanted {
                    blocks.push(std::mem::take(block));
                }
                open = None;
            }
            (Some((_, block)), None) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

/// The commands of a shell block, each as its words: quotes (single and double) and
/// backslash-newline continuations read as the shell reads them, comments dropped.
fn shell_commands(block: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let (mut words, mut word, mut in_word) = (Vec::new(), String::new(), false);
    let mut chars = block.chars().peekable();
    let end_word = |words: &mut Vec<String>, word: &mut String, in_word: &mut bool| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'\n') => {
                chars.next();
                end_word(&mut words, &mut word, &mut in_word);
            }
            '\\' => {
                word.extend(chars.next());
                in_word = true;
            }
            '\'' | '"' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    word.push(q);
                }
            }
            '#' if !in_word => {
                for q in chars.by_ref() {
                    if q == '\n' {
                        break;
                    }
                }
                end_word(&mut words, &mut word, &mut in_word);
                if !words.is_empty() {
                    commands.push(std::mem::take(&mut words));
                }
            }
            '\n' => {
                end_word(&mut words, &mut word, &mut in_word);
                if !words.is_empty() {
                    commands.push(std::mem::take(&mut words));
                }
            }
            c if c.is_whitespace() => end_word(&mut words, &mut word, &mut in_word),
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    end_word(&mut words, &mut word, &mut in_word);
    if !words.is_empty() {
        commands.push(words);
    }
    commands
}

/// A request a `curl` command of README sends.
#[derive(Debug)]
struct Example {
    method: String,
    /// Path and query, as sent to the server.
    uri: String,
    headers: Vec<(String, String)>,
    basic: Option<(String, String)>,
    body: String,
}

/// The request of `curl <words>` against README's server, or none when it names another
/// address; an option this parser does not know fails the test (README must not use one
/// the test would ignore).
fn curl(words: &[String]) -> Option<Example> {
    let mut words = words.iter();
    let (mut method, mut url, mut headers, mut basic, mut body) =
        (None, None, Vec::new(), None, None);
    while let Some(w) = words.next() {
        let mut value = || {
            words
                .next()
                .unwrap_or_else(|| panic!("{w} takes a value"))
                .clone()
        };
        match w.as_str() {
            "-H" | "--header" => {
                let h = value();
                let (k, v) = h.split_once(':').unwrap_or_else(|| panic!("header {h}"));
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
            "-u" | "--user" => {
                let u = value();
                let (l, p) = u.split_once(':').unwrap_or_else(|| panic!("user {u}"));
                basic = Some((l.to_string(), p.to_string()));
            }
            "-d" | "--data" | "--data-raw" => body = Some(value()),
            "-X" | "--request" => method = Some(value()),
            "-s" | "-S" | "-f" | "-i" | "--fail" | "--silent" => {}
            w if w.starts_with('-') => panic!("README's curl uses {w}, which this test ignores"),
            w => url = Some(w.to_string()),
        }
    }
    let url = url.expect("a curl without a URL");
    let uri = url.strip_prefix("http://127.0.0.1:8080")?;
    let method = method.unwrap_or(if body.is_some() { "POST" } else { "GET" }.into());
    Some(Example {
        method,
        uri: if uri.is_empty() {
            "/".into()
        } else {
            uri.into()
        },
        headers,
        basic,
        body: body.unwrap_or_default(),
    })
}

/// README's example requests, in order.
fn readme_examples() -> Vec<Example> {
    let readme = read(&root().join("README.md"));
    code_blocks(&readme, "sh")
        .iter()
        .flat_map(|b| shell_commands(b))
        .filter(|words| words.first().is_some_and(|w| w == "curl"))
        .filter_map(|words| curl(&words[1..]))
        .collect()
}

/// Each of README's requests, sent in order to a fresh server, answers 2xx in the format
/// its `Accept` names (JSON or XML), with a body of that format.
#[tokio::test]
async fn readme_requests_answer_in_the_format_they_ask_for() {
    let examples = readme_examples();
    assert!(
        examples.len() >= 5,
        "README's requests were not found: {examples:?}"
    );
    let app = TestApp::new().await;
    for e in &examples {
        let what = format!("{} {}", e.method, e.uri);
        let mut req = app.abs(&e.method, &e.uri);
        // The body's `Content-Type` goes with it.
        for (k, v) in e.headers.iter().filter(|(k, _)| k != "content-type") {
            req = req.header(k, v);
        }
        if let Some((login, password)) = &e.basic {
            req = req.basic(login, password);
        }
        let (content_type, body) = (e.headers.iter())
            .find(|(k, _)| k == "content-type")
            .map_or(("", ""), |(_, v)| (v.as_str(), e.body.as_str()));
        if !body.is_empty() {
            req = req.raw_body(content_type, body);
        }
        let r = req.send().await;
        assert!(r.status.is_success(), "{what}: {} {}", r.status, r.body);
        let accept = (e.headers.iter())
            .find(|(k, _)| k == "accept")
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("{what}: README's request names no Accept"));
        let answered = r.content_type();
        if accept.ends_with("json") {
            assert!(answered.contains("json"), "{what}: answered {answered}");
            r.json();
        } else {
            assert!(accept.ends_with("+xml"), "{what}: Accept {accept}");
            assert!(answered.contains("+xml"), "{what}: answered {answered}");
            r.xml();
        }
        // A typed Accept is answered with that type.
        if let Some(asked) = accept.strip_prefix("application/vnd.ibexa.api.") {
            let ty = asked.split('+').next().unwrap_or_default();
            assert!(
                answered.contains(&format!(".api.{ty}+")),
                "{what}: asked {accept}, answered {answered}"
            );
        }
    }
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, spaces as
/// `-`, everything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated one also as `-1`, `-2`, ...).
fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let a = anchor(line.trim_start_matches('#'));
        let n = seen.iter().filter(|s| **s == a).count();
        seen.push(if n == 0 { a } else { format!("{a}-{n}") });
    }
    seen
}

/// The link targets of a Markdown text, outside code blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans hold no links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            targets.push(rest[..end].trim().to_string());
            rest = &rest[end..];
        }
    }
    targets
}

/// Every relative link of README.md, docs/*.md and the bench's README leads to a file or
/// folder of the checkout, and its anchor, if any, to a heading of that file.
#[test]
fn every_relative_link_of_the_documentation_leads_somewhere() {
    let root = root();
    let mut pages = vec![root.join("README.md"), root.join("crates/bench/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    assert!(docs.len() >= 5, "docs/ holds {docs:?}");
    pages.extend(docs);
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = read(page);
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let file = if path.is_empty() {
                page.clone()
            } else {
                page.parent().expect("a folder").join(path)
            };
            let name = format!("{} → {target}", page.strip_prefix(&root).unwrap().display());
            if !file.exists() {
                broken.push(format!("{name}: no such file"));
            } else if !fragment.is_empty() && !anchors(&read(&file)).iter().any(|a| a == fragment) {
                broken.push(format!("{name}: no such heading"));
            }
        }
    }
    assert!(checked > 30, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Links are read as GitHub reads them: not in code, anchors from headings (a repeated one
/// numbered), so that the check above finds what it should.
#[test]
fn links_and_anchors_are_read_as_github_reads_them() {
    let text = "See [a](docs/operating.md#running) and `[b](nowhere.md)`, [c](#two-words).\n\
                ```sh\n[d](in-code.md)\n```\n## Two words\n## Two words\n";
    assert_eq!(
        link_targets(text),
        ["docs/operating.md#running", "#two-words"]
    );
    assert_eq!(anchors(text), ["two-words", "two-words-1"]);
    assert_eq!(
        anchor("History of the figures (until 2026-11-28)"),
        "history-of-the-figures-until-2026-11-28"
    );
}

/// The shell reading of README's blocks: continuations, quotes across lines, comments.
#[test]
fn readme_commands_are_read_as_the_shell_reads_them() {
    let block = "cargo run -- serve   # a comment\n\
                 curl -u a:b -H 'Accept: x' \\\n     -d '{\"k\":\n \"v\"}' \\\n     http://127.0.0.1:8080/p?q=1\n";
    let commands = shell_commands(block);
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert_eq!(commands[0], ["cargo", "run", "--", "serve"]);
    let e = curl(&commands[1][1..]).expect("a request");
    assert_eq!((e.method.as_str(), e.uri.as_str()), ("POST", "/p?q=1"));
    assert_eq!(e.body, "{\"k\":\n \"v\"}");
    assert_eq!(e.headers, [("accept".to_string(), "x".to_string())]);
    assert_eq!(e.basic, Some(("a".into(), "b".into())));
    assert!(curl(&["http://example.com/".to_string()]).is_none());
}

/// docs/configuration.md has a row for every option of `cairn serve` with its environment
/// variable and its default as `--help` shows them, and no row for an option that is not
/// there; `--help` writes every default one way (clap's `[default: ...]` after `[env: ...]`,
/// never in an option's own text).
#[test]
fn the_configuration_page_lists_every_option_of_serve() {
    use clap::CommandFactory;
    let page = read(&root().join("docs/configuration.md"));
    let table: Vec<Vec<String>> = page
        .split("## cairn serve")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a section for cairn serve")
        .lines()
        .filter(|l| l.starts_with("| `--"))
        .map(|l| {
            l.split(" | ")
                .map(|c| c.trim_matches('|').trim().to_string())
                .collect()
        })
        .collect();
    let cli = cairn::config::Cli::command();
    let serve = cli.find_subcommand("serve").expect("serve");
    let mut named = Vec::new();
    for arg in serve.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if matches!(long, "help" | "version") {
            continue;
        }
        let option = format!("`--{long}`");
        named.push(option.clone());
        let row = (table.iter())
            .find(|r| r[0].split(", ").any(|o| o == option))
            .unwrap_or_else(|| panic!("docs/configuration.md has no row for {option}"));
        if let Some(env) = arg.get_env() {
            let env = format!("`{}`", env.to_string_lossy());
            assert!(row[1].contains(&env), "{option}: {env} not in {row:?}");
        }
        let defaults: Vec<String> = (arg.get_default_values().iter())
            .map(|d| d.to_string_lossy().into_owned())
            .collect();
        if arg.get_action().takes_values()
            && !defaults.is_empty()
            && !arg.is_hide_default_value_set()
        {
            let default = format!("`{}`", defaults.join(","));
            assert!(
                row[2].contains(&default),
                "{option}: {default} not in {row:?}"
            );
        }
    }
    for row in &table {
        for option in row[0].split(", ") {
            assert!(
                named.contains(&option.to_string()),
                "{option} is no option of cairn serve"
            );
        }
    }
    // No option of any command writes a default of its own in its text.
    let mut commands = vec![cli.clone()];
    while let Some(command) = commands.pop() {
        for arg in command.get_arguments() {
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            let name = format!("{} {}", command.get_name(), arg.get_id());
            assert!(
                !help.contains("[default"),
                "{name} writes its own default: {help}"
            );
        }
        commands.extend(command.get_subcommands().cloned());
    }
}
