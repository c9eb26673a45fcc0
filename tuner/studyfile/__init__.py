"""The study file (`file`, and the modules it names): its model, the config read from it, bot entries, the
`[search]` overrides, problems and their messages, the fields' table, the search space and the bot it tunes. The
package imports none of them, so that a command loads only what it uses."""
