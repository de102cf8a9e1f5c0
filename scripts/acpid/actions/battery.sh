#!/bin/sh
# acpid action for battery events (/etc/acpi/events/pmtools-battery): see handler.sh.
exec "$(dirname -- "$0")/handler.sh" battery "$@"
