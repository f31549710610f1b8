//! The Markdown tables tidy reads as the one statement of a fact: ARCHITECTURE.md's allowed
//! dependency edges and README.md's crate table. Each is read strictly (a cell that does not
//! name crates the way the table does is an error, never skipped), so that a table tidy cannot
//! read fails instead of passing with rows missing.

use std::collections::{BTreeMap, BTreeSet};

/// Crate name → the crates of the workspace it depends on (or may depend on).
pub type Edges = BTreeMap<String, BTreeSet<String>>;

/// The heading of ARCHITECTURE.md's dependency table (its section starts with this text).
pub const EDGES_HEADING: &str = "## Allowed dependency edges";

/// The heading of README.md's crate table.
pub const CRATES_HEADING: &str = "## Using the crates";

/// What a row's second cell says for a crate that depends on none of ours.
const NONE_OF_OURS: &str = "(none of ours)";

/// The section that starts at the line beginning with `heading`, up to the next heading of the
/// same or a higher level: the number of lines before it in the file, and its text.
fn section<'a>(markdown: &'a str, heading: &str) -> Result<(usize, &'a str), String> {
    let level = heading.chars().take_while(|c| *c == '#').count();
    let (before, start) = markdown
        .lines()
        .scan(0, |offset, line| {
            let at = *offset;
            *offset += line.len() + 1;
            Some((at, line))
        })
        .enumerate()
        .find(|(_, (_, line))| line.starts_with(heading))
        .map(|(index, (at, _))| (index, at))
        .ok_or_else(|| format!("no section headed {heading:?}"))?;
    let rest = markdown.get(start..).unwrap_or_default();
    let mut end = rest.len();
    let mut offset = 0;
    for (index, line) in rest.lines().enumerate() {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if index > 0 && hashes > 0 && hashes <= level && line.chars().nth(hashes) == Some(' ') {
            end = offset;
            break;
        }
        offset += line.len() + 1;
    }
    Ok((before, rest.get(..end).unwrap_or(rest)))
}

/// The cells of one table line, `| a | b |`, trimmed; an escaped pipe (`\|`) stays in its cell.
fn cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                out.last_mut()?.push('|');
            }
            '|' => out.push(String::new()),
            _ => out.last_mut()?.push(c),
        }
    }
    Some(out.into_iter().map(|cell| cell.trim().to_owned()).collect())
}

/// The body rows of the first table in a [`section`] (after its header and separator lines),
/// each with its line number in the file, counted from 1.
fn table_rows((before, section): (usize, &str), columns: usize) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut lines = section
        .lines()
        .enumerate()
        .map(|(index, line)| (before + index, line))
        .skip_while(|(_, line)| !line.trim_start().starts_with('|'));
    let header = lines.next().ok_or("no table")?;
    let separator = lines.next().ok_or("a table without a separator line")?;
    let is_separator = cells(separator.1).is_some_and(|cells| {
        cells.iter().all(|cell| !cell.is_empty() && cell.chars().all(|c| matches!(c, '-' | ':')))
    });
    if !is_separator {
        return Err(format!("line {}: not a table's separator line", separator.0 + 1));
    }
    let header_cells = cells(header.1).ok_or("a header line without cells")?;
    if header_cells.len() != columns {
        return Err(format!("the table has {} columns, not {columns}", header_cells.len()));
    }
    let mut rows = Vec::new();
    for (index, line) in lines.take_while(|(_, line)| line.trim_start().starts_with('|')) {
        let row = cells(line).ok_or_else(|| format!("line {}: not a table row", index + 1))?;
        if row.len() != columns {
            return Err(format!("line {}: {} cells, not {columns}", index + 1, row.len()));
        }
        rows.push((index + 1, row));
    }
    Ok(rows)
}

/// A crate's name written as code, `` `name` ``, and nothing else.
fn crate_name(cell: &str, line: usize) -> Result<String, String> {
    cell.strip_prefix('`')
        .and_then(|rest| rest.strip_suffix('`'))
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .map(str::to_owned)
        .ok_or_else(|| format!("line {line}: {cell:?} is not a crate's name in backticks"))
}

/// The dependency table of an ARCHITECTURE.md text: each crate's row and the crates it may
/// depend on.
pub fn allowed_edges(markdown: &str) -> Result<Edges, String> {
    let mut edges = Edges::new();
    for (line, row) in table_rows(section(markdown, EDGES_HEADING)?, 2)? {
        let (name, allowed) = match row.as_slice() {
            [name, allowed] => (crate_name(name, line)?, allowed),
            _ => return Err(format!("line {line}: not two cells")),
        };
        let allowed = if allowed == NONE_OF_OURS {
            BTreeSet::new()
        } else {
            let mut set = BTreeSet::new();
            for cell in allowed.split(',') {
                let dependency = crate_name(cell.trim(), line)?;
                if !set.insert(dependency.clone()) {
                    return Err(format!("line {line}: {dependency} is listed twice"));
                }
            }
            set
        };
        if edges.insert(name.clone(), allowed).is_some() {
            return Err(format!("line {line}: a second row for {name}"));
        }
    }
    Ok(edges)
}

/// Every way the table and the manifests' edges differ, one sentence each; none when they agree.
pub fn edge_differences(table: &Edges, actual: &Edges) -> Vec<String> {
    let mut differences = Vec::new();
    for (name, dependencies) in actual {
        let Some(allowed) = table.get(name) else {
            differences.push(format!("{name} has no row in ARCHITECTURE.md's dependency table"));
            continue;
        };
        for dependency in dependencies.difference(allowed) {
            differences.push(format!(
                "{name} depends on {dependency}, which ARCHITECTURE.md's table does not allow"
            ));
        }
        for dependency in allowed.difference(dependencies) {
            differences.push(format!(
                "ARCHITECTURE.md's table lists {name} -> {dependency}, which {name}'s manifest does \
                 not declare: remove it from the table"
            ));
        }
    }
    for name in table.keys().filter(|name| !actual.contains_key(*name)) {
        differences
            .push(format!("ARCHITECTURE.md's table has a row for {name}, which is no workspace package"));
    }
    differences
}

/// The crates README.md's crate table names, in its order.
pub fn readme_crates(markdown: &str) -> Result<Vec<String>, String> {
    table_rows(section(markdown, CRATES_HEADING)?, 3)?
        .into_iter()
        .map(|(line, row)| crate_name(row.first().map_or("", String::as_str), line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "# Made up\n\ntext\n\n## Allowed dependency edges (normal)\n\n\
        | crate | may depend on |\n| --- | --- |\n\
        | `a` | (none of ours) |\n| `b` | `a` |\n| `c` | `a`, `b` |\n\n\
        Prose after the table.\n\n## The next section\n\n| x | y |\n| --- | --- |\n| `z` | `a` |\n";

    fn edges(rows: &[(&str, &[&str])]) -> Edges {
        rows.iter()
            .map(|(name, deps)| (name.to_string(), deps.iter().map(|d| d.to_string()).collect()))
            .collect()
    }

    #[test]
    fn a_table_reads_as_its_rows_and_stops_at_the_next_section() {
        let table = allowed_edges(TABLE).unwrap();
        assert_eq!(table, edges(&[("a", &[]), ("b", &["a"]), ("c", &["a", "b"])]));
    }

    #[test]
    fn the_same_edges_agree() {
        let table = allowed_edges(TABLE).unwrap();
        let actual = edges(&[("a", &[]), ("b", &["a"]), ("c", &["a", "b"])]);
        assert_eq!(edge_differences(&table, &actual), Vec::<String>::new());
    }

    #[test]
    fn every_disagreement_is_reported() {
        let table = allowed_edges(TABLE).unwrap();
        // b lost its edge to a, c gained one to d, d has no row, and a is gone from the code.
        let actual = edges(&[("b", &[]), ("c", &["a", "b", "d"]), ("d", &[])]);
        let differences = edge_differences(&table, &actual);
        assert_eq!(
            differences,
            [
                "ARCHITECTURE.md's table lists b -> a, which b's manifest does not declare: remove it from the table",
                "c depends on d, which ARCHITECTURE.md's table does not allow",
                "d has no row in ARCHITECTURE.md's dependency table",
                "ARCHITECTURE.md's table has a row for a, which is no workspace package",
            ]
        );
    }

    #[test]
    fn a_table_tidy_cannot_read_is_an_error() {
        let cases = [
            (
                TABLE.replace("| `b` | `a` |", "| b | `a` |"),
                "line 10: \"b\" is not a crate's name in backticks",
            ),
            (TABLE.replace("`a`, `b`", "`a` `b`"), "line 11: \"`a` `b`\" is not a crate's name in backticks"),
            (TABLE.replace("`a`, `b`", "`a`, `a`"), "line 11: a is listed twice"),
            (TABLE.replace("| `c` |", "| `b` |"), "line 11: a second row for b"),
            (TABLE.replace("| `b` | `a` |", "| `b` | `a` | x |"), "line 10: 3 cells, not 2"),
            (TABLE.replace("| --- | --- |\n| `a`", "| `a`"), "line 8: not a table's separator line"),
            (
                TABLE.replace("## Allowed", "## Permitted"),
                "no section headed \"## Allowed dependency edges\"",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(allowed_edges(&text), Err(expected.to_owned()), "{text}");
        }
    }

    #[test]
    fn a_crate_table_reads_its_first_column_with_escaped_pipes_in_cells() {
        let readme = "## Using the crates\n\n| crate | what | features |\n| --- | --- | --- |\n\
            | `one` | a \\| b | **`std`** |\n| `two` | c | |\n\n### Examples\n";
        assert_eq!(readme_crates(readme), Ok(vec!["one".to_owned(), "two".to_owned()]));
        let unnamed = readme.replace("| `two` |", "| two |");
        assert_eq!(
            readme_crates(&unnamed),
            Err("line 6: \"two\" is not a crate's name in backticks".to_owned())
        );
    }
}
