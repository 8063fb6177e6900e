# PREDUCE_SANITIZE: a comma-separated sanitizer list (e.g. address,undefined) applied to
# every target of this build. Empty (the default): no sanitizers.
set(PREDUCE_SANITIZE "" CACHE STRING "Sanitizers for every target, e.g. address,undefined")
