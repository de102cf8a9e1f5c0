#!/bin/sh
# acpid action for power events (/etc/acpi/events/pmtools-power): see handler.sh.
exec "$(dirname -- "$0")/handler.sh" power "$@"
