#!/bin/sh
# acpid action for ac events (/etc/acpi/events/pmtools-ac): see handler.sh.
exec "$(dirname -- "$0")/handler.sh" ac "$@"
