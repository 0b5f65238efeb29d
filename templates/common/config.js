{# The one rendered module of a build: what differs between campaigns, as constants every other module imports.
   The entries and their order come from exporter/targets/config_js.py. #}
// The configuration of {{ build }}, written by ambush {{ ambush_version }} from its campaign.toml.
// The only module that differs between campaigns: edit the campaign and rebuild rather than this file.
{% for entry in entries %}

/** {{ entry.doc }} */
export const {{ entry.name }} = {{ entry.value | js_block }};
{% endfor %}
