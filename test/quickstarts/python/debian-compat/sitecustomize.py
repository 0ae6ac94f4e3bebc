# Only for running the Python quickstart on Debian 12 (test/quickstarts/languages.ts puts this
# folder on PYTHONPATH there), whose google-api-python-client is 1.7.12 while PyPI is out of CI's
# reach. The quickstart is written for 2.x, whose build() takes client_options and builds from
# the discovery document bundled with the library; 1.7.12's build() has neither and downloads
# the document. This gives 1.7.12 that one 2.x behaviour and nothing else: the hosted API's own
# discovery document (CALENDAR_DISCOVERY_DOCUMENT) with its base set to
# client_options["api_endpoint"], as 2.x sets it. The consent flow, the credentials, the refresh
# and every request stay Debian's real libraries.
import inspect
import json
import os

import googleapiclient.discovery as discovery

if "client_options" not in inspect.signature(discovery.build).parameters:

    def build(serviceName, version, credentials=None, client_options=None, **kwargs):
        assert (serviceName, version) == ("calendar", "v3"), "only the calendar v3 document is at hand"
        with open(os.environ["CALENDAR_DISCOVERY_DOCUMENT"], encoding="utf-8") as document:
            service = json.load(document)
        service["rootUrl"], service["servicePath"] = client_options["api_endpoint"], ""
        return discovery.build_from_document(service, credentials=credentials, **kwargs)

    discovery.build = build
