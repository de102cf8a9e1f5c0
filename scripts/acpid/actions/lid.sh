#!/bin/sh
# acpid action for lid events (/etc/acpi/events/pmtools-lid): see handler.sh.
exec "$(dirname -- "$0")/handler.sh" lid "$@"
