//! Path parameters read back out of hrefs and request paths by their templates.

/// The value of the single `{param}` of `template` in `href`. A last parameter may span
/// slashes (a Location path); others may not.
pub fn param_of<'h>(href: &'h str, template: &str) -> Option<&'h str> {
    let start = template.find('{')?;
    let end = template.find('}')?;
    let (before, after) = (&template[..start], &template[end + 1..]);
    let rest = href.strip_prefix(before)?;
    let value = rest.strip_suffix(after)?;
    let value = value.trim_end_matches('/');
    if value.is_empty() || (!after.is_empty() && value.contains('/')) {
        return None;
    }
    Some(value)
}

/// The parameters of `template` (`/content/objects/{contentId}/versions/{versionNo}`) in
/// `path`, in order; `None` when `path` is not one of its paths. Each parameter takes one
/// segment, or where `multi` says so one or more segments of digits (a Location path
/// `1/2/54`). A trailing slash is allowed.
pub fn params_of<'h>(path: &'h str, template: &str, multi: &[bool]) -> Option<Vec<&'h str>> {
    let path = match path.strip_suffix('/') {
        Some(p) if !p.is_empty() => p,
        _ => path,
    };
    // Segment spans of the path (both begin with '/', so the first segment is empty).
    let mut spans = Vec::new();
    let mut start = 0;
    for (i, c) in path.char_indices() {
        if c == '/' {
            spans.push((start, i));
            start = i + 1;
        }
    }
    spans.push((start, path.len()));
    let parts: Vec<&str> = template.split('/').collect();
    let mut out = Vec::with_capacity(multi.len());
    fn walk<'h>(
        path: &'h str,
        spans: &[(usize, usize)],
        parts: &[&str],
        multi: &[bool],
        out: &mut Vec<&'h str>,
    ) -> bool {
        let Some((part, rest)) = parts.split_first() else {
            return spans.is_empty();
        };
        if !(part.starts_with('{') && part.ends_with('}')) {
            return spans.first().is_some_and(|&(a, b)| &path[a..b] == *part)
                && walk(path, &spans[1..], rest, multi, out);
        }
        let many = multi.get(out.len()).copied().unwrap_or(false);
        let most = if many {
            spans.len()
        } else {
            spans.len().min(1)
        };
        for n in 1..=most {
            let taken = &spans[..n];
            let ok = taken.iter().all(|&(a, b)| {
                let s = &path[a..b];
                !s.is_empty() && (!many || s.bytes().all(|c| c.is_ascii_digit()))
            });
            if !ok {
                break;
            }
            out.push(&path[taken[0].0..taken[n - 1].1]);
            if walk(path, &spans[n..], rest, multi, out) {
                return true;
            }
            out.pop();
        }
        false
    }
    walk(path, &spans, &parts, multi, &mut out).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_give_their_parameters_back() {
        let t = "/content/objects/{contentId}/versions/{versionNo}";
        assert_eq!(
            params_of("/content/objects/4/versions/2", t, &[false, false]),
            Some(vec!["4", "2"])
        );
        assert_eq!(
            params_of("/content/objects/4/versions/2/", t, &[false, false]),
            Some(vec!["4", "2"])
        );
        assert_eq!(
            params_of("/content/objects/4/versions", t, &[false, false]),
            None
        );
        assert_eq!(
            params_of("/content/objects/4/versions/2/x", t, &[false, false]),
            None
        );
        assert_eq!(
            params_of("/content/objects//versions/2", t, &[false, false]),
            None
        );
        let g = "/user/groups/{groupPath}/subgroups";
        assert_eq!(
            params_of("/user/groups/1/5/12/subgroups", g, &[true]),
            Some(vec!["1/5/12"])
        );
        assert_eq!(params_of("/user/groups/subgroups", g, &[true]), None);
        assert_eq!(params_of("/user/groups/1/x/subgroups", g, &[true]), None);
        let l = "/content/locations/{locationPath}";
        assert_eq!(
            params_of("/content/locations/1/2", l, &[true]),
            Some(vec!["1/2"])
        );
        assert_eq!(
            params_of("/content/locations/1/2/children", l, &[true]),
            None
        );
        assert_eq!(params_of("/", "/", &[]), Some(vec![]));
        assert_eq!(
            params_of("/languages/eng-GB", "/languages/{languageCode}", &[false]),
            Some(vec!["eng-GB"])
        );
    }

    #[test]
    fn params_come_out_of_hrefs() {
        assert_eq!(
            param_of("/content/types/12", "/content/types/{id}"),
            Some("12")
        );
        assert_eq!(
            param_of("/content/locations/1/2/54", "/content/locations/{p}"),
            Some("1/2/54")
        );
        assert_eq!(
            param_of("/content/types/1/x", "/content/types/{id}"),
            Some("1/x")
        );
        assert_eq!(
            param_of("/content/types/1/draft", "/content/types/{id}/draft"),
            Some("1")
        );
        assert_eq!(
            param_of("/content/types/1/2/draft", "/content/types/{id}/draft"),
            None
        );
        assert_eq!(param_of("/content/objects/1", "/content/types/{id}"), None);
    }
}
