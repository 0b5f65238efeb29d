{# The end of every common file: the names it exports as an ES module, or returns as a function body in the Roll20 IIFE. #}
{% macro exports(names, as_module) %}
{{ "export" if as_module else "return" }} {
{% for name in names %}
  {{ name }},
{% endfor %}
};
{% endmacro %}
